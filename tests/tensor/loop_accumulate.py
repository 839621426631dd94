# A loop carrying a tensor of one shape keeps it; a shape that changes on
# every trip of an unknown loop widens to `?`.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def run(x: Tensor[f32, (B, D)], w: Tensor[f32, (D, D)], steps: int):
    h = x
    for i in range(steps):
        h = tanh(h @ w) + h
    reveal_type(h)  # expect-type: Tensor[f32, (B, D)]
    acc = zeros((1, 4))
    for i in range(3):
        acc = concat((acc, zeros((1, 4))))
    reveal_type(acc)  # expect-type: Tensor[f32, (4, 4)]
    grow = ones((1,))
    while reduce_sum(grow) < 10.0:
        grow = concat((grow, grow))
    reveal_type(grow)  # expect-type: Tensor[f32, (?,)]
    return h
