# Indices are ints, slices, None, ..., or integer/bool_ tensors.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], f: Tensor[f32, (2,)]):
    a = x[1.5]  # expect-error: type-mismatch
    b = x[f]  # expect-error: type-mismatch
    c = x["a"]  # expect-error: type-mismatch
    d = x[0:1.5]  # expect-error: type-mismatch
    e = x[::0]  # expect-error: type-mismatch
    return x
