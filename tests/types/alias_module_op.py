# A list grown by `+=` or append in a loop and then handed to an op of
# the fathom module keeps its known length and items when the op is
# reached through the module (`F.concat`, `F.stack` after `import fathom
# as F`) exactly as when it is imported by name: an op keeps no list, so
# rebinding the name to its result shares nothing (pytorch/examples
# mnist_forward_forward's `goodness_per_label = torch.cat(goodness_per_label, 1)`).
import fathom as F


def per_label(x: F.Tensor[F.f32, (4, 3)]):
    acc = []
    for label in range(3):
        acc += [F.expand_dims(F.mean(x, 1), 1)]
    n = len(acc)  # expect-type: i64=3
    acc = F.concat(acc, 1)  # expect-type: Tensor[f32, (4, 3)]
    return acc


def stacked(x: F.Tensor[F.f32, (4, 3)]):
    hs = []
    for t in range(2):
        hs.append(x * 2.0)
    hs = F.stack(hs, 0)  # expect-type: Tensor[f32, (2, 4, 3)]
    return hs


def aliased_through_max():
    # max may return one of its arguments: ys may be xs itself, so the
    # append through xs must reach ys (CPython: len(ys) is 3)
    xs = [1, 2]
    ys = F.max(xs, [0])
    xs.append(3)
    n = len(ys)  # expect-type: i64
    return n
