# expand_dims inserts a 1 at each axis of the result.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ex(x: Tensor[f32, (B, T)]):
    reveal_type(expand_dims(x, 0))  # expect-type: Tensor[f32, (1, B, T)]
    reveal_type(expand_dims(x, 1))  # expect-type: Tensor[f32, (B, 1, T)]
    reveal_type(expand_dims(x, -1))  # expect-type: Tensor[f32, (B, T, 1)]
    reveal_type(expand_dims(x, 2))  # expect-type: Tensor[f32, (B, T, 1)]
    reveal_type(expand_dims(x, (0, 3)))  # expect-type: Tensor[f32, (1, B, T, 1)]
    reveal_type(x.expand_dims(axis=1) * ones((1, 4, 1)))  # expect-type: Tensor[f32, (B, 4, T)]
    return x
