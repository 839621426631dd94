# x.shape is a tuple: known dims are constants, symbolic ones i64.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def shp(x: Tensor[f32, (B, 3, 4)], y: Tensor[f32, ...]):
    reveal_type(x.shape)  # expect-type: tuple[i64, i64=3, i64=4]
    reveal_type(x.shape[1])  # expect-type: i64=3
    reveal_type(x.shape[-1] * 2)  # expect-type: i64=8
    reveal_type(x.shape[1:])  # expect-type: tuple[i64=3, i64=4]
    reveal_type(len(x.shape))  # expect-type: i64=3
    b, c, d = x.shape
    reveal_type(c + d)  # expect-type: i64=7
    reveal_type(y.shape)  # expect-type: unknown
    reveal_type(zeros((2, 3)).shape)  # expect-type: tuple[i64=2, i64=3]
    return x
