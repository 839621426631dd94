# sum max min are Python's builtins extended to tensors: a tensor first
# argument makes them reductions (x, axis=None, keepdims=False); anything
# else is the builtin.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def builtins_(x: Tensor[f32, (B, 3)], y: Tensor[f32, (B, 3)]):
    reveal_type(sum(x))  # expect-type: Tensor[f32, ()]
    reveal_type(sum(x, 1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(max(x, 1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(min(x, axis=0, keepdims=True))  # expect-type: Tensor[f32, (1, 3)]
    reveal_type(sum((x, y)))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(sum((1, 2, 3)))  # expect-type: i64=6
    reveal_type(max(2, 5))  # expect-type: i64=5
    reveal_type(min((4.0, 1.5)))  # expect-type: f64=1.5
    reveal_type(sum([x, y], zeros((3,))))  # expect-type: Tensor[f32, (B, 3)]
    return x
