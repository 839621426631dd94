# An int index drops a dim.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ix(x: Tensor[f32, (B, T, D)], v: Tensor[i32, (5,)], k: int):
    reveal_type(x[0])  # expect-type: Tensor[f32, (T, D)]
    reveal_type(x[0, 1])  # expect-type: Tensor[f32, (D,)]
    reveal_type(x[0, 1, 2])  # expect-type: Tensor[f32, ()]
    reveal_type(x[:, 0])  # expect-type: Tensor[f32, (B, D)]
    reveal_type(x[k])  # expect-type: Tensor[f32, (T, D)]
    reveal_type(v[4])  # expect-type: Tensor[i32, ()]
    reveal_type(v[3] + v[0])  # expect-type: Tensor[i32, ()]
    return x
