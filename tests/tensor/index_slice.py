# A slice keeps the dim; its length is exact when the size is known.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sl(x: Tensor[f32, (10, 4)]):
    reveal_type(x[2:5])  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(x[:3])  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(x[7:])  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(x[::2])  # expect-type: Tensor[f32, (5, 4)]
    reveal_type(x[::-1])  # expect-type: Tensor[f32, (10, 4)]
    reveal_type(x[-3:])  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(x[8:20])  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(x[5:2])  # expect-type: Tensor[f32, (0, 4)]
    reveal_type(x[:, 1:3])  # expect-type: Tensor[f32, (10, 2)]
    reveal_type(x[1:-1, ::3])  # expect-type: Tensor[f32, (8, 2)]
    return x
