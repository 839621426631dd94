# The truth value of a tensor with more than one element is ambiguous.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)], e: Tensor[f32, (0,)], m: Tensor[bool_, (2, 2)]):
    if x > 0:  # expect-error: type-mismatch
        pass
    a = bool(e)  # expect-error: type-mismatch
    b = not m  # expect-error: type-mismatch
    c = m and x  # expect-error: type-mismatch
    while x:  # expect-error: type-mismatch
        x = x - 1
    return x
