# split(x, n, axis): a tuple of n equal parts; split(x, (i, j)) cuts at indices.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sp(x: Tensor[f32, (6, 4)], y: Tensor[f32, (B, 2*D)]):
    reveal_type(split(x, 3))  # expect-type: tuple[Tensor[f32, (2, 4)], Tensor[f32, (2, 4)], Tensor[f32, (2, 4)]]
    reveal_type(split(x, 2, axis=1))  # expect-type: tuple[Tensor[f32, (6, 2)], Tensor[f32, (6, 2)]]
    a, b = split(x, 2, -1)
    reveal_type(a)  # expect-type: Tensor[f32, (6, 2)]
    reveal_type(split(x, (1, 4)))  # expect-type: tuple[Tensor[f32, (1, 4)], Tensor[f32, (3, 4)], Tensor[f32, (2, 4)]]
    reveal_type(split(x, (2, 10)))  # expect-type: tuple[Tensor[f32, (2, 4)], Tensor[f32, (4, 4)], Tensor[f32, (0, 4)]]
    reveal_type(x.split(6)[5])  # expect-type: Tensor[f32, (1, 4)]
    return x


def halves(y: Tensor[f32, (B, 8)]):
    lo, hi = split(y, 2, axis=1)
    reveal_type(lo)  # expect-type: Tensor[f32, (B, 4)]
    first, second = split(y, 2)
    reveal_type(second)  # expect-type: Tensor[f32, (B//2, 8)]
    return y
