# Two known sizes that differ and are not 1 do not broadcast.
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (3,)], b: Tensor[f32, (4,)], m: Tensor[f32, (2, 3)]):
    s = a + b  # expect-error: shape-mismatch
    t = m * zeros((3, 2))  # expect-error: shape-mismatch
    u = m - a
    return u
