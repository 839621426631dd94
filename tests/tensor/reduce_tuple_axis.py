# A tuple of axes reduces each of them.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def many(x: Tensor[f32, (B, C, H, W)]):
    reveal_type(mean(x, axis=(2, 3)))  # expect-type: Tensor[f32, (B, C)]
    reveal_type(reduce_sum(x, (0, 2, 3)))  # expect-type: Tensor[f32, (C,)]
    reveal_type(var(x, axis=(0, 2, 3), keepdims=True))  # expect-type: Tensor[f32, (1, C, 1, 1)]
    reveal_type(x.max(axis=(1,)))  # expect-type: Tensor[f32, (B, H, W)]
    reveal_type(reduce_sum(x, ()))  # expect-type: Tensor[f32, (B, C, H, W)]
    return x
