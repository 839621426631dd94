# A permutation must name every axis once.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3, 4)]):
    a = transpose(x, (1, 0))  # expect-error: shape-mismatch
    b = transpose(x, (0, 1, 3))  # expect-error: index-out-of-range
    c = x.transpose(0, 0, 1)  # expect-error: type-mismatch
    return x
