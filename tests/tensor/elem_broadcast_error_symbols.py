# Two different symbols where equality is required: a shape-mismatch that
# names both (and notes where each was introduced).
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (N, 3)], y: Tensor[f32, (M, 3)]):
    return x + y  # expect-error: shape-mismatch


def bad2(x: Tensor[f32, (B, T)], y: Tensor[f32, (B, S)]):
    z = x * y  # expect-error: shape-mismatch
    return x
