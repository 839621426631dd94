# concat and stack need one dtype.
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (2, 3)], b: Tensor[i32, (2, 3)]):
    c = concat((a, b))  # expect-error: dtype-mismatch
    d = stack((b, a))  # expect-error: dtype-mismatch
    return a
