# The window must fit; the input has rank 2 or more; padding at most half the kernel.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (1, 1, 3, 3)], v: Tensor[f32, (9,)]):
    a = max_pool2d(x, 4)  # expect-error: shape-mismatch
    b = max_pool2d(v, 2)  # expect-error: shape-mismatch
    c = max_pool2d(x, 0)  # expect-error: shape-mismatch
    d = max_pool2d(x, 2, padding=2)  # expect-error: shape-mismatch
    e = max_pool2d(x, 2, dilation=2)  # expect-error: arity
    f = avg_pool2d(x, 3, padding=2)  # expect-error: shape-mismatch
    return x
