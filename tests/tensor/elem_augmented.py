# Augmented assignment rebinds: x += 1 is x = x + 1, with the same rules.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def acc(x: Tensor[f32, (B, 4)], y: Tensor[f32, (4,)], i: Tensor[i32, (4,)]):
    x += 1  # expect-type: Tensor[f32, (B, 4)]
    x *= y  # expect-type: Tensor[f32, (B, 4)]
    i += 1.5  # expect-type: Tensor[f32, (4,)]
    z = zeros((4,))
    z -= y  # expect-type: Tensor[f32, (4,)]
    x @= ones((4, 2))  # expect-type: Tensor[f32, (B, 2)]
    return x
