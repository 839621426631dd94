# The input channels of x and w must agree.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (8, 3, 32, 32)], w: Tensor[f32, (16, 4, 3, 3)], y: Tensor[f32, (N, C, H, W)],
        v: Tensor[f32, (O, D, 3, 3)]):
    a = conv2d(x, w)  # expect-error: shape-mismatch
    b = conv2d(y, v)  # expect-error: shape-mismatch
    return x
