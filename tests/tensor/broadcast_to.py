# broadcast_to(x, shape): x's dims are 1 or equal to the target's.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def bt(bias: Tensor[f32, (4,)], col: Tensor[f32, (B, 1)], x: Tensor[f32, (B, 4)]):
    reveal_type(broadcast_to(bias, (3, 4)))  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(broadcast_to(bias, x.shape))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(broadcast_to(col, (x.shape[0], 4)))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(broadcast_to(col, (2, x.shape[0], 7)))  # expect-type: Tensor[f32, (2, B, 7)]
    reveal_type(bias.broadcast_to((2, 4)))  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(broadcast_to(1.5, (2, 2)))  # expect-type: Tensor[f32, (2, 2)]
    return x
