# Tensors combine with tensors and numbers only (DSL rule: no implicit
# conversion of tuples, lists or strings).
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2,)]):
    a = x + (1, 2)  # expect-error: type-mismatch
    b = [1.0] * x  # expect-error: type-mismatch
    c = x - "s"  # expect-error: type-mismatch
    d = x < None  # expect-error: type-mismatch
    return x
