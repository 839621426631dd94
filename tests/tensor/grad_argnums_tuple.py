# A tuple of argnums gives a tuple of gradients.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def loss(w: Tensor[f32, (4, 2)], b: Tensor[f32, (2,)], x: Tensor[f32, (8, 4)]):
    return reduce_sum((x @ w + b) ** 2)


def step(w: Tensor[f32, (4, 2)], b: Tensor[f32, (2,)], x: Tensor[f32, (8, 4)]):
    gw, gb = grad(loss, argnums=(0, 1))(w, b, x)
    reveal_type(gw)  # expect-type: Tensor[f32, (4, 2)]
    reveal_type(gb)  # expect-type: Tensor[f32, (2,)]
    reveal_type(grad(loss, (2,))(w, b, x))  # expect-type: tuple[Tensor[f32, (8, 4)]]
    reveal_type(grad(loss, (1, 0))(w, b, x))  # expect-type: tuple[Tensor[f32, (2,)], Tensor[f32, (4, 2)]]
    return w
