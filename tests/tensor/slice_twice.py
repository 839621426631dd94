# Slicing an expression dim: x[1:] of B is B-1 (B >= 1), but x[1:][1:] is
# not B-2, because B-1 may be 0 (B = 1 gives an empty result, not -1 rows).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def f(x: Tensor[f32, (B, D)]):
    reveal_type(x[1:])  # expect-type: Tensor[f32, (B-1, D)]
    reveal_type(x[-1:])  # expect-type: Tensor[f32, (1, D)]
    reveal_type(x[:-1])  # expect-type: Tensor[f32, (B-1, D)]
    reveal_type(x[1:][1:])  # expect-type: Tensor[f32, (?, D)]
    reveal_type(x[:-1][-1:])  # expect-type: Tensor[f32, (?, D)]
    return x[1:][1:]
