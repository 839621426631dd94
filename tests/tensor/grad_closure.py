# grad of a lambda or nested function that captures tensors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def fit(w: Tensor[f32, (D,)], x: Tensor[f32, (N, D)], y: Tensor[f32, (N,)]):
    def loss(p):
        err = x @ p - y
        return mean(err * err)

    g = grad(loss)(w)
    reveal_type(g)  # expect-type: Tensor[f32, (D,)]
    h = grad(lambda p: reduce_sum(p * p))(w)
    reveal_type(h)  # expect-type: Tensor[f32, (D,)]
    scale = 2.0
    k = grad(lambda s: s * scale)(1.0)
    reveal_type(k)  # expect-type: f64
    return w
