# take needs integer indices; a known index must be in range.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (4, 3)], f: Tensor[f32, (2,)], m: Tensor[bool_, (2,)]):
    a = take(x, 4)  # expect-error: index-out-of-range
    b = take(x, -5)  # expect-error: index-out-of-range
    c = take(x, f)  # expect-error: type-mismatch
    d = take(x, m)  # expect-error: type-mismatch
    e = take(x, 1, axis=2)  # expect-error: index-out-of-range
    return x
