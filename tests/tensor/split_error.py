# A known size must divide into n equal parts; n must be positive.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (6, 4)]):
    a = split(x, 4)  # expect-error: shape-mismatch
    b = split(x, 0)  # expect-error: type-mismatch
    c = split(x, 2, axis=2)  # expect-error: index-out-of-range
    d, e = split(x, 3)  # expect-error: arity
    return x
