# A symbol is not known to equal a size other than 1.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (N,)]):
    y = x + ones((3,))  # expect-error: shape-mismatch
    z = x + ones((1,))
    return z
