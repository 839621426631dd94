# x.reshape(...) takes the shape as one tuple or as separate ints.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def rs(x: Tensor[f32, (B, 12)]):
    reveal_type(x.reshape(x.shape[0], 3, 4))  # expect-type: Tensor[f32, (B, 3, 4)]
    reveal_type(x.reshape((x.shape[0], -1, 2)))  # expect-type: Tensor[f32, (B, 6, 2)]
    reveal_type(x.reshape(-1))  # expect-type: Tensor[f32, (12*B,)]
    reveal_type(x.reshape(-1, 12))  # expect-type: Tensor[f32, (B, 12)]
    return x
