# Unary math needs a tensor or a number.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2,)]):
    a = exp("x")  # expect-error: type-mismatch
    b = relu((1, 2))  # expect-error: type-mismatch
    c = sqrt(x, x)  # expect-error: arity
    return x
