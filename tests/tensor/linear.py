# linear(x, w, b) = x @ w.T + b, with w (out, in).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def lin(x: Tensor[f32, (B, T, D)], w: Tensor[f32, (H, D)], b: Tensor[f32, (H,)], v: Tensor[f32, (D,)]):
    reveal_type(linear(x, w))  # expect-type: Tensor[f32, (B, T, H)]
    reveal_type(linear(x, w, b))  # expect-type: Tensor[f32, (B, T, H)]
    reveal_type(linear(v, w, b))  # expect-type: Tensor[f32, (H,)]
    reveal_type(linear(x, w, None))  # expect-type: Tensor[f32, (B, T, H)]
    reveal_type(linear(relu(linear(x, w, b)), ones((3, x.shape[-1] * 0 + w.shape[0]))))  # expect-type: Tensor[f32, (B, T, 3)]
    return x
