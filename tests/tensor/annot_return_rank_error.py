# A result of another rank fails the return check.
from __future__ import annotations
from fathom import *


def total(x: Tensor[f32, (B, D)]) -> Tensor[f32, (B,)]:  # expect-error: return-annotation
    return reduce_sum(x)


def scalar(x: Tensor[f32, (B, D)]) -> Tensor[f32, ()]:  # expect-error: return-annotation
    return x
