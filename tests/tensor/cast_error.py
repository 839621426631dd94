# cast needs a tensor (or number) and a dtype.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)]):
    a = cast(x, "f16")  # expect-error: type-mismatch
    b = cast((1, 2), f32)  # expect-error: type-mismatch
    c = cast(x)  # expect-error: arity
    d = x.astype(x)  # expect-error: type-mismatch
    return x
