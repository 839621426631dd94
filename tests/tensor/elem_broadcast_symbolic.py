# Equal symbols agree, a 1 stretches to a symbol, a `?` takes the other side.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sym(x: Tensor[f32, (B, T)], y: Tensor[f32, (B, T)], bias: Tensor[f32, (T,)],
        col: Tensor[f32, (B, 1)], u: Tensor[f32, (None, T)]):
    reveal_type(x + y)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(x * bias)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(x - col)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(col + bias)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(u + x)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(u + col)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(u + ones((1, 1)))  # expect-type: Tensor[f32, (?, T)]
    reveal_type(u * 2)  # expect-type: Tensor[f32, (?, T)]
    return x
