# Dims unpacked from x.shape keep their symbols in new shapes.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def attn(x: Tensor[f32, (B, T, C)]):
    B_, T_, C_ = x.shape
    reveal_type(T_)  # expect-type: i64
    mask = ones((T_, T_), dtype=bool_)
    reveal_type(mask)  # expect-type: Tensor[bool_, (T, T)]
    scores = x @ transpose(x, (0, 2, 1))
    reveal_type(where(mask, scores, -1e9))  # expect-type: Tensor[f32, (B, T, T)]
    reveal_type(zeros((B_, C_)))  # expect-type: Tensor[f32, (B, C)]
    (b, t), c = x.shape[:2], x.shape[2]
    reveal_type(zeros((b, t, c)))  # expect-type: Tensor[f32, (B, T, C)]
    return x
