# concat needs tensors of one rank (not 0-d), a non-empty tuple, an axis in range.
from __future__ import annotations
from fathom import *


def bad(a: Tensor[f32, (2, 3)], v: Tensor[f32, (3,)], s: Tensor[f32, ()]):
    c = concat((a, v))  # expect-error: shape-mismatch
    d = concat((s, s))  # expect-error: shape-mismatch
    e = concat(())  # expect-error: shape-mismatch
    f = concat((a, a), axis=2)  # expect-error: index-out-of-range
    g = concat(a)  # expect-error: type-mismatch
    return a
