# grad w.r.t. a list of known length keeps each item, as for a tuple:
# the gradient of stax-style params [(W1, b1), (W2, b2)] has each layer's
# shapes, so an update loop over zip(params, grads) keeps them too (it
# was list[tuple[Tensor[f32, (?, ?)], ...]], which let a pruned branch of
# jax_dp_sgd run in a second, imprecise context and report a cascade).
from fathom import *
from typing import reveal_type


def loss(params, x):
    h = x
    for w, b in params:
        h = tanh(h @ w + b)
    return reduce_sum(h)


def main():
    params = [(zeros((3, 4)), zeros((4,))), (zeros((4, 2)), zeros((2,)))]
    grads = grad(loss)(params, zeros((5, 3)))
    reveal_type(grads)  # expect-type: list[tuple[Tensor[f32, (3, 4)], Tensor[f32, (4,)]], tuple[Tensor[f32, (4, 2)], Tensor[f32, (2,)]]]
    new = [(w - 0.1 * dw, b - 0.1 * db) for (w, b), (dw, db) in zip(params, grads)]
    reveal_type(new)  # expect-type: list[tuple[Tensor[f32, (3, 4)], Tensor[f32, (4,)]], tuple[Tensor[f32, (4, 2)], Tensor[f32, (2,)]]]
    value, g2 = value_and_grad(loss)(new, zeros((5, 3)))
    reveal_type(g2[1][0])  # expect-type: Tensor[f32, (4, 2)]
    one = grad(loss)([(zeros((3, 2)), zeros((2,)))], zeros((5, 3)))
    reveal_type(one)  # expect-type: list[tuple[Tensor[f32, (3, 2)], Tensor[f32, (2,)]],]
