# A known dim that differs from the annotation fails the return check.
from __future__ import annotations
from fathom import *


def proj(x: Tensor[f32, (B, 128)]) -> Tensor[f32, (B, 64)]:  # expect-error: return-annotation
    return x


def fixed() -> Tensor[f32, (2, 3)]:  # expect-error: return-annotation
    return zeros((3, 2))
