# One -1 takes what the others leave: exact division of the element count.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def rs(x: Tensor[f32, (2, 3, 4)], y: Tensor[f32, (B, T, D)], z: Tensor[f32, (N, 6)]):
    reveal_type(reshape(x, (-1, 4)))  # expect-type: Tensor[f32, (6, 4)]
    reveal_type(reshape(x, (-1,)))  # expect-type: Tensor[f32, (24,)]
    reveal_type(reshape(x, (2, -1)))  # expect-type: Tensor[f32, (2, 12)]
    reveal_type(reshape(y, (y.shape[0], -1)))  # expect-type: Tensor[f32, (B, T*D)]
    reveal_type(reshape(y, (-1, y.shape[2])))  # expect-type: Tensor[f32, (B*T, D)]
    reveal_type(reshape(z, (-1, 3)))  # expect-type: Tensor[f32, (2*N, 3)]
    reveal_type(reshape(z, (-1,)))  # expect-type: Tensor[f32, (6*N,)]
    return x
