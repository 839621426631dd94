# A known index out of a known size is an index-out-of-range.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], y: Tensor[f32, (N, 2)]):
    a = x[3]  # expect-error: index-out-of-range
    b = x[-4]  # expect-error: index-out-of-range
    c = x[0, 4]  # expect-error: index-out-of-range
    d = y[:, 2]  # expect-error: index-out-of-range
    e = y[100]
    return e
