# None adds a dim of 1; ... stands for the dims not indexed.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ne(x: Tensor[f32, (B, T, D)], v: Tensor[f32, (D,)]):
    reveal_type(x[None])  # expect-type: Tensor[f32, (1, B, T, D)]
    reveal_type(x[:, None])  # expect-type: Tensor[f32, (B, 1, T, D)]
    reveal_type(x[..., None])  # expect-type: Tensor[f32, (B, T, D, 1)]
    reveal_type(x[...])  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(x[..., 0])  # expect-type: Tensor[f32, (B, T)]
    reveal_type(x[0, ..., 1:])  # expect-type: Tensor[f32, (T, D-1)]
    reveal_type(v[None, :] * v[:, None])  # expect-type: Tensor[f32, (D, D)]
    reveal_type(x[None, ..., None, 0])  # expect-type: Tensor[f32, (1, B, T, 1)]
    return x
