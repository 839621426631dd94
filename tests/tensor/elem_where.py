# where(c, a, b): the broadcast of all three, with a's and b's dtype.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pick(x: Tensor[f32, (B, T)], y: Tensor[f32, (T,)], mask: Tensor[bool_, (B, 1)], i: Tensor[i32, (T,)]):
    reveal_type(where(x > 0, x, 0.0))  # expect-type: Tensor[f32, (B, T)]
    reveal_type(where(mask, x, y))  # expect-type: Tensor[f32, (B, T)]
    reveal_type(where(mask, 1, 0))  # expect-type: Tensor[i64, (B, 1)]
    reveal_type(where(mask, 1.0, 0))  # expect-type: Tensor[f64, (B, 1)]
    reveal_type(where(i > 0, i, -1))  # expect-type: Tensor[i32, (T,)]
    reveal_type(where(i, y, y))  # expect-type: Tensor[f32, (T,)]
    reveal_type(where(condition=mask, x=y, y=0.5))  # expect-type: Tensor[f32, (B, T)]
    return x
