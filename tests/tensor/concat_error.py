# The other dims of concat must agree: symbols included.
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (2, 3)], b: Tensor[f32, (2, 4)], x: Tensor[f32, (N, 3)], y: Tensor[f32, (M, 3)]):
    c = concat((a, b))  # expect-error: shape-mismatch
    d = concat((x, y), axis=1)  # expect-error: shape-mismatch
    e = concat((x, y))
    return e
