# layer_norm(x, gamma, beta, eps): gamma and beta cover the last dims of x.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ln(x: Tensor[f32, (B, T, D)], g: Tensor[f32, (D,)], b: Tensor[f32, (D,)], g2: Tensor[f32, (T, D)]):
    reveal_type(layer_norm(x, g, b))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, g, b, 1e-6))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, g2, g2, eps=1e-5))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, None, None))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, g))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, eps=1e-3))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(layer_norm(x, ones((x.shape[-1],)), zeros((x.shape[-1],))))  # expect-type: Tensor[f32, (B, T, D)]
    return x
