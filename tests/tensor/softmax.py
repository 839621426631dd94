# softmax/log_softmax keep the shape (float dtypes; integers give f32).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sm(x: Tensor[f32, (B, C)], h: Tensor[f16, (4,)], i: Tensor[i32, (2, 3)]):
    reveal_type(softmax(x))  # expect-type: Tensor[f32, (B, C)]
    reveal_type(softmax(x, axis=0))  # expect-type: Tensor[f32, (B, C)]
    reveal_type(log_softmax(x, -1))  # expect-type: Tensor[f32, (B, C)]
    reveal_type(softmax(h))  # expect-type: Tensor[f16, (4,)]
    reveal_type(softmax(i))  # expect-type: Tensor[f32, (2, 3)]
    reveal_type(x.softmax())  # expect-type: Tensor[f32, (B, C)]
    reveal_type(x.log_softmax(axis=1))  # expect-type: Tensor[f32, (B, C)]
    return x
