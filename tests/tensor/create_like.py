# zeros_like/ones_like keep shape and dtype unless dtype= is given.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def like(x: Tensor[i32, (B, 4)], m: Tensor[bool_, (2, 2)]):
    reveal_type(zeros_like(x))  # expect-type: Tensor[i32, (B, 4)]
    reveal_type(ones_like(m))  # expect-type: Tensor[bool_, (2, 2)]
    reveal_type(zeros_like(x, dtype=f16))  # expect-type: Tensor[f16, (B, 4)]
    reveal_type(ones_like(x, f32))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(zeros_like(2.5))  # expect-type: Tensor[f32, ()]
    reveal_type(ones_like(3))  # expect-type: Tensor[i64, ()]
    return x
