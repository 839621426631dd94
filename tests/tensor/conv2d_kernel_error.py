# conv2d needs rank-4 operands, a kernel that fits, stride >= 1, padding >= 0.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (1, 3, 4, 4)], w: Tensor[f32, (2, 3, 7, 7)], w3: Tensor[f32, (2, 3, 3)],
        k: Tensor[f32, (2, 3, 3, 3)], h: Tensor[f16, (2, 3, 3, 3)]):
    a = conv2d(x, w)  # expect-error: shape-mismatch
    b = conv2d(x, w3)  # expect-error: shape-mismatch
    c = conv2d(x, k, stride=0)  # expect-error: shape-mismatch
    d = conv2d(x, k, padding=-1)  # expect-error: shape-mismatch
    e = conv2d(x, h)  # expect-error: dtype-mismatch
    f = conv2d(x, k, stride="2")  # expect-error: type-mismatch
    return x
