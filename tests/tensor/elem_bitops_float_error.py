# Bit operations need integer or bool_ tensors.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (4,)], m: Tensor[bool_, (4,)]):
    a = x & x  # expect-error: type-mismatch
    b = ~x  # expect-error: type-mismatch
    c = x | 1  # expect-error: type-mismatch
    d = m << m  # expect-error: type-mismatch
    return m
