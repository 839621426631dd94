# Two different symbols as inner dims: a shape-mismatch naming both.
from __future__ import annotations
from fathom import *


def layer(x: Tensor[f32, (B, D)], w: Tensor[f32, (K, H)]):
    y = x @ w  # expect-error: shape-mismatch
    return x


def layer2(x: Tensor[f32, (B, D)], w: Tensor[f32, (D, H)], v: Tensor[f32, (B, H)]):
    y = x @ w
    z = y @ v  # expect-error: shape-mismatch
    return y
