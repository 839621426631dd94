# Batch dims must broadcast.
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (2, 3, 4)], b: Tensor[f32, (5, 4, 6)]):
    c = a @ b  # expect-error: shape-mismatch
    return a
