# Symbolic inner dims must be the same symbol.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def mlp(x: Tensor[f32, (B, D)], w1: Tensor[f32, (D, H)], w2: Tensor[f32, (H, C)]):
    h = relu(x @ w1)
    reveal_type(h)  # expect-type: Tensor[f32, (B, H)]
    reveal_type(h @ w2)  # expect-type: Tensor[f32, (B, C)]
    reveal_type(softmax(h @ w2))  # expect-type: Tensor[f32, (B, C)]
    reveal_type(x @ ones((x.shape[1], 2)))  # expect-type: Tensor[f32, (B, 2)]
    return x
