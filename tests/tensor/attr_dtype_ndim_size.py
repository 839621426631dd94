# dtype, ndim and size are constants when known.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def at(x: Tensor[f16, (2, 3, 4)], y: Tensor[i32, (N, 3)], z: Tensor[f32, ...]):
    reveal_type(x.dtype)  # expect-type: type=f16
    reveal_type(x.ndim)  # expect-type: i64=3
    reveal_type(x.size)  # expect-type: i64=24
    reveal_type(y.dtype)  # expect-type: type=i32
    reveal_type(y.size)  # expect-type: i64
    reveal_type(y.ndim)  # expect-type: i64=2
    reveal_type(z.ndim)  # expect-type: i64
    reveal_type(x.dtype == f16)  # expect-type: bool=True
    reveal_type(y.dtype is f32)  # expect-type: bool=False
    reveal_type(zeros((2,), dtype=x.dtype))  # expect-type: Tensor[f16, (2,)]
    return x
