# concat: the axis adds up, the other dims must agree.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def cat(a: Tensor[f32, (B, 3)], b: Tensor[f32, (B, 5)], c: Tensor[f32, (2, 3)], d: Tensor[f32, (None, 3)]):
    reveal_type(concat((a, b), axis=1))  # expect-type: Tensor[f32, (B, 8)]
    reveal_type(concat((a, b), -1))  # expect-type: Tensor[f32, (B, 8)]
    reveal_type(concat((a, c)))  # expect-type: Tensor[f32, (B+2, 3)]
    reveal_type(concat((a, a, a)))  # expect-type: Tensor[f32, (3*B, 3)]
    reveal_type(concat((c, c), axis=0))  # expect-type: Tensor[f32, (4, 3)]
    reveal_type(concat((a,)))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(concat((c, d)))  # expect-type: Tensor[f32, (?, 3)]
    reveal_type(concat((d, b), axis=1))  # expect-type: Tensor[f32, (B, 8)]
    return a
