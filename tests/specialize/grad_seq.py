# args: --entry step
# Gradients through sequences and dims known only at run time
# (docs/ir-json.md, "Gradients"): the parameters as a list of (w, b)
# pairs, sliced and unpacked, and outputs collected in a list that is
# stacked (a list of known length takes its adjoint item by item, like a
# tuple, and the gradient of a list is a list); and a broadcast between
# x[:n], whose first dim is only known when it runs (one row, or all of
# them), and x (its adjoint is `unbroadcast`: g summed to the run-time
# shape of x[:n]); a list appended to in a loop whose trip count is only
# known when it runs, then read by index and stacked (its adjoint is a
# list too: `list_index_grad`, `unstack`, `list_add`).
from __future__ import annotations
from fathom import *


def mlp_loss(layers, x):
    h = x
    for w, b in layers[:-1]:
        h = tanh(h @ w + b)
    w, b = layers[-1]
    outs = []
    for scale in (1.0, 2.0):
        outs.append(h * scale)
    return mean(stack(outs, 0) @ w + b)


def rows_loss(x, w, n):
    y = x[:n]
    return mean(tanh(y + x) @ w)


def grown_loss(w, xs):
    hs = []
    for x in xs:   # a trip count only known when it runs
        hs.append(tanh(x @ w))
    return mean(cumsum(stack(hs, 1), axis=1) ** 2) + mean(hs[0] * hs[-1])


def step(w1: Tensor[f32, (3, 4)], b1: Tensor[f32, (4,)], w2: Tensor[f32, (4, 2)],
         b2: Tensor[f32, (2,)], x: Tensor[f32, (B, 3)], first: bool, xs: Tensor[f32, (T, B, 3)]):
    layers = [(w1, b1), (w2, b2)]
    n = 1 if first else x.shape[0]   # one row, or all of them
    m = x.shape[0] if first else 1   # the other
    return (grad(mlp_loss)(layers, x), grad(rows_loss, argnums=(0, 1))(x, w1, n),
            grad(rows_loss, argnums=(0, 1))(x, w1, m), grad(grown_loss)(w1, xs))


def joined_loss(w, xs):
    hs = []
    for x in xs:
        hs.append(tanh(x @ w))
    return mean(concat(hs, 0))


def joined(w: Tensor[f32, (3, 4)], xs: Tensor[f32, (T, B, 3)]):
    # concat of a list of unknown length: its adjoint cuts g at the
    # items' sizes when it runs (unconcat)
    return grad(joined_loss)(w, xs)


def summed_loss(w, xs):
    hs = []
    for x in xs:
        hs.append(tanh(x @ w))
    return mean(sum(hs))


def summed(w: Tensor[f32, (3, 4)], xs: Tensor[f32, (T, B, 3)]):
    # sum of a list of unknown length has no adjoint rule: the grad stays
    # a call of the grad value with a note, never a zero gradient
    # (tests/specialize_grad.py's KNOWN)
    return grad(summed_loss)(w, xs)


def listed_loss(xs):
    s = stack(list(xs), 0)
    return mean(s * s) + mean(xs[0] * xs[-1])


def listed(xs: list[Tensor[f32, (3,)]]):
    # a list of unknown length as the differentiated argument: its
    # gradient is a list of as many tensors
    return grad(listed_loss)(xs)


def concatenated_loss(a, b):
    c = [x * 2.0 for x in a + b]
    return mean(stack(c, 0) ** 3)


def concatenated(w: Tensor[f32, (3,)], v: Tensor[f32, (3,)]):
    # a + b of two lists, of two tuples: each side gets its items' adjoints
    return (grad(concatenated_loss, argnums=(0, 1))([w, v], [v * 2.0]),
            grad(concatenated_loss)((w,), (v, w)))


def pairs_loss(layers, x):
    h = x
    for w, b in layers[:-1]:   # a slice, then a loop of run-time trip count
        h = tanh(h @ w + b)
    w, b = layers[-1]
    return mean((h @ w + b) ** 2) + mean(layers[0][1])


def pairs(layers: list[tuple[Tensor[f32, (3, 3)], Tensor[f32, (3,)]]], x: Tensor[f32, (B, 3)]):
    # a list of unknown length of (w, b) pairs: its adjoint is a list of
    # pairs (list_slice_grad, list_index_grad); updated by a comprehension
    # (again of unknown length) and differentiated again, as a training
    # loop's second step does
    value, grads = value_and_grad(pairs_loss)(layers, x)
    layers = [(w - 0.1 * dw, b - 0.1 * db) for (w, b), (dw, db) in zip(layers, grads)]
    return value, grad(pairs_loss)(layers, x * 2.0)
