# flatten(x, start=0, end=-1) merges the dims start..end (inclusive).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def fl(x: Tensor[f32, (B, C, H, W)], s: Tensor[f32, ()]):
    reveal_type(flatten(x))  # expect-type: Tensor[f32, (B*C*H*W,)]
    reveal_type(flatten(x, 1))  # expect-type: Tensor[f32, (B, C*H*W)]
    reveal_type(flatten(x, 1, 2))  # expect-type: Tensor[f32, (B, C*H, W)]
    reveal_type(flatten(x, start=2))  # expect-type: Tensor[f32, (B, C, H*W)]
    reveal_type(flatten(x, 0, -2))  # expect-type: Tensor[f32, (B*C*H, W)]
    reveal_type(x.flatten(1))  # expect-type: Tensor[f32, (B, C*H*W)]
    reveal_type(flatten(ones((2, 3, 4)), 1))  # expect-type: Tensor[f32, (2, 12)]
    reveal_type(flatten(s))  # expect-type: Tensor[f32, (1,)]
    return x
