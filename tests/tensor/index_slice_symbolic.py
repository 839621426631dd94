# Slices of a symbolic dim are exact when they cannot clamp, else `?`.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sl(x: Tensor[f32, (T, D)], k: int):
    t = x.shape[0]
    reveal_type(x[:])  # expect-type: Tensor[f32, (T, D)]
    reveal_type(x[1:])  # expect-type: Tensor[f32, (T-1, D)]
    reveal_type(x[:-1])  # expect-type: Tensor[f32, (T-1, D)]
    reveal_type(x[-1:])  # expect-type: Tensor[f32, (1, D)]
    reveal_type(x[:t])  # expect-type: Tensor[f32, (T, D)]
    reveal_type(x[:t // 2])  # expect-type: Tensor[f32, (T//2, D)]
    reveal_type(x[::2])  # expect-type: Tensor[f32, ((T+1)//2, D)]
    reveal_type(x[::-1])  # expect-type: Tensor[f32, (T, D)]
    reveal_type(x[2:])  # expect-type: Tensor[f32, (?, D)]
    reveal_type(x[:3])  # expect-type: Tensor[f32, (?, D)]
    reveal_type(x[k:])  # expect-type: Tensor[f32, (?, D)]
    reveal_type(x[1:] - x[:-1])  # expect-type: Tensor[f32, (T-1, D)]
    return x
