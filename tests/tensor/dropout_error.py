# p is a probability.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)]):
    a = dropout(x, 1.5)  # expect-error: type-mismatch
    b = dropout(x, -0.1)  # expect-error: type-mismatch
    c = dropout(x, "p")  # expect-error: type-mismatch
    return x
