# Tensors with different dims join to `?` in those dims at a merge.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pick(x: Tensor[f32, (N, 4)], flag: bool):
    if flag:
        y = x
    else:
        y = x[:2]
    reveal_type(y)  # expect-type: Tensor[f32, (?, 4)]
    z = ones((2, 3)) if flag else ones((2, 5))
    reveal_type(z)  # expect-type: Tensor[f32, (2, ?)]
    w = ones((2,)) if flag else ones((2, 2))
    reveal_type(w)  # expect-type: Tensor[f32, ...]
    return y
