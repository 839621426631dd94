# max(a, b) of two tensors is not element-wise: use maximum.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)], y: Tensor[f32, (3,)]):
    a = max(x, y)  # expect-error: type-mismatch
    b = min(0.0, x)  # expect-error: type-mismatch
    c = sum(1, 2, 3)  # expect-error: arity
    return x
