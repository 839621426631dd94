# broadcast_to cannot change a size other than 1, nor lower the rank.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], y: Tensor[f32, (N,)]):
    a = broadcast_to(x, (3, 5))  # expect-error: shape-mismatch
    b = broadcast_to(x, (4,))  # expect-error: shape-mismatch
    c = broadcast_to(y, (2, 7))  # expect-error: shape-mismatch
    return x
