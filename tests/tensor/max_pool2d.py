# max_pool2d(x, kernel, stride=kernel) pools the last two dims.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pool(x: Tensor[f32, (8, 16, 32, 32)], y: Tensor[f32, (N, C, H, W)], z: Tensor[f32, (5, 9)]):
    reveal_type(max_pool2d(x, 2))  # expect-type: Tensor[f32, (8, 16, 16, 16)]
    reveal_type(max_pool2d(x, 3, 1))  # expect-type: Tensor[f32, (8, 16, 30, 30)]
    reveal_type(max_pool2d(x, (2, 4)))  # expect-type: Tensor[f32, (8, 16, 16, 8)]
    reveal_type(max_pool2d(x, kernel=3, stride=2))  # expect-type: Tensor[f32, (8, 16, 15, 15)]
    reveal_type(max_pool2d(y, 2))  # expect-type: Tensor[f32, (N, C, H//2, W//2)]
    reveal_type(max_pool2d(z, 2))  # expect-type: Tensor[f32, (2, 4)]
    return x
