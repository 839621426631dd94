# transpose reverses the axes, or permutes them; x.T reverses.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def tr(x: Tensor[f32, (A, B, C)], v: Tensor[f32, (5,)]):
    reveal_type(transpose(x))  # expect-type: Tensor[f32, (C, B, A)]
    reveal_type(transpose(x, (1, 0, 2)))  # expect-type: Tensor[f32, (B, A, C)]
    reveal_type(transpose(x, perm=(2, 0, 1)))  # expect-type: Tensor[f32, (C, A, B)]
    reveal_type(transpose(x, (-1, 0, 1)))  # expect-type: Tensor[f32, (C, A, B)]
    reveal_type(x.transpose(0, 2, 1))  # expect-type: Tensor[f32, (A, C, B)]
    reveal_type(x.transpose((2, 1, 0)))  # expect-type: Tensor[f32, (C, B, A)]
    reveal_type(x.transpose())  # expect-type: Tensor[f32, (C, B, A)]
    reveal_type(x.T)  # expect-type: Tensor[f32, (C, B, A)]
    reveal_type(v.T)  # expect-type: Tensor[f32, (5,)]
    return x
