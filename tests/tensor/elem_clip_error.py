# clip needs one bound at least, and bounds that broadcast with x.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)], d: Tensor[f64, (3,)]):
    a = clip(x, None, None)  # expect-error: type-mismatch
    b = clip(x, zeros((4,)), 1.0)  # expect-error: shape-mismatch
    c = clip(x, d, 1.0)  # expect-error: dtype-mismatch
    e = clip(x, 0.0)  # expect-error: arity
    return x
