# stack needs equal shapes (no broadcasting) and an axis in [-(r+1), r].
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (2, 3)], b: Tensor[f32, (2, 4)], x: Tensor[f32, (N,)], y: Tensor[f32, (M,)]):
    c = stack((a, b))  # expect-error: shape-mismatch
    d = stack((x, y))  # expect-error: shape-mismatch
    e = stack((a, a), axis=3)  # expect-error: index-out-of-range
    return a
