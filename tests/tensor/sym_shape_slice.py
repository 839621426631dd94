# Slices and concatenations of x.shape keep the symbols.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sl(x: Tensor[f32, (B, T, D)]):
    reveal_type(zeros(x.shape[1:]))  # expect-type: Tensor[f32, (T, D)]
    reveal_type(zeros(x.shape[:-1] + (4,)))  # expect-type: Tensor[f32, (B, T, 4)]
    reveal_type(zeros((2,) + x.shape))  # expect-type: Tensor[f32, (2, B, T, D)]
    reveal_type(reshape(x, x.shape[:1] + (-1,)))  # expect-type: Tensor[f32, (B, T*D)]
    reveal_type(broadcast_to(zeros((1, 1, 1)), x.shape[::-1]))  # expect-type: Tensor[f32, (D, T, B)]
    return x
