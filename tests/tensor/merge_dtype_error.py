# dtypes must agree at a merge.
from __future__ import annotations
from fathom import *


def pick(x: Tensor[f32, (4,)], flag: bool):
    if flag:  # expect-error: type-mismatch
        y = x
    else:
        y = cast(x, f16)
    return y
