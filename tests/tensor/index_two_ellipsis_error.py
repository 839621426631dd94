# Only one ellipsis per index; a mask must match the dims it indexes.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], m: Tensor[bool_, (4,)]):
    a = x[..., ...]  # expect-error: index-out-of-range
    b = x[m]  # expect-error: shape-mismatch
    return x
