# stack: equal shapes, a new axis holding their number.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def st(a: Tensor[f32, (B, 3)], s: Tensor[i64, ()]):
    reveal_type(stack((a, a)))  # expect-type: Tensor[f32, (2, B, 3)]
    reveal_type(stack((a, a, a), axis=1))  # expect-type: Tensor[f32, (B, 3, 3)]
    reveal_type(stack((a, a), axis=-1))  # expect-type: Tensor[f32, (B, 3, 2)]
    reveal_type(stack((a, a), 2))  # expect-type: Tensor[f32, (B, 3, 2)]
    reveal_type(stack((s, s, s, s)))  # expect-type: Tensor[i64, (4,)]
    return a
