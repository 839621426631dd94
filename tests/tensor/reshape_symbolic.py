# Shapes built from x.shape stay symbolic through reshape.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def heads(x: Tensor[f32, (B, T, 64)]):
    b, t, d = x.shape
    h = 4
    q = reshape(x, (b, t, h, d // h))
    reveal_type(q)  # expect-type: Tensor[f32, (B, T, 4, 16)]
    q = transpose(q, (0, 2, 1, 3))
    reveal_type(q)  # expect-type: Tensor[f32, (B, 4, T, 16)]
    back = reshape(transpose(q, (0, 2, 1, 3)), (b, t, d))
    reveal_type(back)  # expect-type: Tensor[f32, (B, T, 64)]
    flat = reshape(x, (b * t, d))
    reveal_type(flat)  # expect-type: Tensor[f32, (B*T, 64)]
    reveal_type(reshape(flat, x.shape))  # expect-type: Tensor[f32, (B, T, 64)]
    return x
