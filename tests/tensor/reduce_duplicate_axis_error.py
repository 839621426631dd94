# A repeated axis is an error (numpy's ValueError).
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)]):
    a = reduce_sum(x, axis=(1, 1))  # expect-error: type-mismatch
    b = mean(x, (0, -2))  # expect-error: type-mismatch
    return x
