# maximum/minimum broadcast like operators; on Python numbers they give numbers.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def mm(x: Tensor[f32, (B, 4)], y: Tensor[f32, (4,)], i: Tensor[i32, (B, 1)]):
    reveal_type(maximum(x, 0.0))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(minimum(x, y))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(maximum(i, 0))  # expect-type: Tensor[i32, (B, 1)]
    reveal_type(minimum(i, 0.5))  # expect-type: Tensor[f32, (B, 1)]
    reveal_type(maximum(1, 2.0))  # expect-type: f64
    reveal_type(minimum(3, 4))  # expect-type: i64
    reveal_type(x.maximum(y))  # expect-type: Tensor[f32, (B, 4)]
    return x


def bad(x: Tensor[f32, (3,)], y: Tensor[f64, (3,)], z: Tensor[f32, (5,)]):
    a = maximum(x, y)  # expect-error: dtype-mismatch
    b = minimum(x, z)  # expect-error: shape-mismatch
    return x
