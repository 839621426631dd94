# An axis out of range is an index-out-of-range (numpy's AxisError).
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], s: Tensor[f32, ()]):
    a = reduce_sum(x, axis=2)  # expect-error: index-out-of-range
    b = mean(x, -3)  # expect-error: index-out-of-range
    c = x.sum(axis=(0, 5))  # expect-error: index-out-of-range
    d = argmax(s, axis=0)  # expect-error: index-out-of-range
    e = max(x, axis=2.0)  # expect-error: type-mismatch
    return x
