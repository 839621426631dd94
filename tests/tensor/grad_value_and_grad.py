# value_and_grad gives (value, gradients).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def loss(params: tuple[Tensor[f32, (3, 3)], Tensor[f32, (3,)]], x: Tensor[f32, (5, 3)]):
    w, b = params
    return mean(x @ w + b)


def step(w: Tensor[f32, (3, 3)], b: Tensor[f32, (3,)], x: Tensor[f32, (5, 3)]):
    v, g = value_and_grad(loss)((w, b), x)
    reveal_type(v)  # expect-type: Tensor[f32, ()]
    reveal_type(g)  # expect-type: tuple[Tensor[f32, (3, 3)], Tensor[f32, (3,)]]
    r = value_and_grad(loss, argnums=(0, 1))((w, b), x)
    reveal_type(r[1][1])  # expect-type: Tensor[f32, (5, 3)]
    return w
