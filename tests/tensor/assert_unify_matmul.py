# Unifying an inner dim makes a matmul of two annotated tensors check.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def layer(x: Tensor[f32, (B, D)], w: Tensor[f32, (K, H)]) -> Tensor[f32, (B, H)]:
    assert x.shape[1] == w.shape[0]
    y = x @ w
    reveal_type(y)  # expect-type: Tensor[f32, (B, H)]
    return y


def layer_unchecked(x: Tensor[f32, (B, D)], w: Tensor[f32, (K, H)]):
    return x @ w  # expect-error: shape-mismatch
