# A result of another dtype (or kind) fails the return check.
from __future__ import annotations
from fathom import *


def half(x: Tensor[f32, (B,)]) -> Tensor[f16, (B,)]:  # expect-error: return-annotation
    return x


def count(x: Tensor[f32, (B,)]) -> int:  # expect-error: return-annotation
    return x
