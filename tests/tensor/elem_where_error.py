# where's branches need one dtype, and all three shapes must broadcast.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (4,)], d: Tensor[f64, (4,)], m: Tensor[bool_, (3,)]):
    a = where(x > 0, x, d)  # expect-error: dtype-mismatch
    b = where(m, x, x)  # expect-error: shape-mismatch
    c = where(x > 0, x, "no")  # expect-error: type-mismatch
    return x
