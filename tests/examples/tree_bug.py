# expect-error at line 67: shape-mismatch
# Planted bug: the bag of words averages over the feature axis instead of the word axis.
"""A recursive neural network over a binary parse tree given as nested
tuples: a leaf is a batch of word vectors (B, 8), an inner node is a pair
(left, right).  Each node is composed bottom-up with a shared layer; the
tree's depth, leaf count and the parameter count of a nested parameter
tuple are computed by the same kind of recursion.
"""
from __future__ import annotations

from fathom import *

DIM = 8


def is_leaf(node):
    return not isinstance(node, tuple)


def compose(node, w, b):
    if is_leaf(node):
        return node
    left, right = node
    both = concat((compose(left, w, b), compose(right, w, b)), axis=-1)   # (B, 16)
    return tanh(linear(both, w, b))


def depth(node):
    if is_leaf(node):
        return 0
    left, right = node
    return 1 + max(depth(left), depth(right))


def leaves(node):
    if is_leaf(node):
        return (node,)
    out = ()
    for child in node:
        out = out + leaves(child)
    return out


def tree_map(fn, node):
    if is_leaf(node):
        return fn(node)
    return tuple(tree_map(fn, child) for child in node)


def param_count(params):
    if isinstance(params, tuple):
        return sum(param_count(p) for p in params)
    return params.size


def global_norm(params):
    return sqrt(sum(reduce_sum(p * p) for p in leaves(params)))


@jit
def sentence(tree: tuple[tuple[Tensor[f32, (B, 8)], Tensor[f32, (B, 8)]],
                         tuple[Tensor[f32, (B, 8)], tuple[Tensor[f32, (B, 8)], Tensor[f32, (B, 8)]]]],
             w: Tensor[f32, (8, 16)], b: Tensor[f32, (8,)], w_out: Tensor[f32, (3, 8)]):
    root = compose(tree, w, b)
    words = stack(leaves(tree), axis=1)                                 # (B, 5, 8)
    bag = mean(words, axis=2)
    return log_softmax(linear(root + bag, w_out)), depth(tree)


@jit
def clip_params(params: tuple[Tensor[f32, (8, 16)], Tensor[f32, (8,)],
                              tuple[Tensor[f32, (3, 8)], Tensor[f32, (3,)]]], max_norm: float):
    scale = minimum(max_norm / (global_norm(params) + 1e-6), 1.0)
    clipped = tree_map(lambda p: p * scale, params)
    return clipped, param_count(params), len(leaves(params))


if __name__ == "__main__":
    bsz = 2

    def word():
        return random_normal((bsz, DIM))

    tree = ((word(), word()), (word(), (word(), word())))
    w = random_normal((DIM, 2 * DIM)) * 0.3
    b = zeros((DIM,))
    logp, d = sentence(tree, w, b, random_normal((3, DIM)))
    assert logp.shape == (bsz, 3) and logp.dtype == f32
    assert d == 3
    params = (w, b, (random_normal((3, DIM)), zeros((3,))))
    clipped, n, k = clip_params(params, 0.5)
    assert n == 8 * 16 + 8 + 3 * 8 + 3 and k == 4, (n, k)
    assert clipped[2][0].shape == (3, DIM) and clipped[2][0].dtype == f32
    assert abs(float(global_norm(clipped)) - 0.5) < 1e-3
    print("tree ok")
