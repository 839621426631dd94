# softmax's axis must exist.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3)], s: Tensor[f32, ()]):
    a = softmax(x, axis=2)  # expect-error: index-out-of-range
    b = log_softmax(x, -3)  # expect-error: index-out-of-range
    c = softmax(s)  # expect-error: index-out-of-range
    d = softmax(1.0)  # expect-error: type-mismatch
    return x
