# Comparisons broadcast and give bool_ tensors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def cmp(x: Tensor[f32, (B, 3)], y: Tensor[f32, (3,)], i: Tensor[i32, (B, 1)]):
    reveal_type(x < y)  # expect-type: Tensor[bool_, (B, 3)]
    reveal_type(x >= 0)  # expect-type: Tensor[bool_, (B, 3)]
    reveal_type(0.5 == x)  # expect-type: Tensor[bool_, (B, 3)]
    reveal_type(i != 2)  # expect-type: Tensor[bool_, (B, 1)]
    reveal_type(i > 1.5)  # expect-type: Tensor[bool_, (B, 1)]
    reveal_type((x > 0) & (x < 1))  # expect-type: Tensor[bool_, (B, 3)]
    reveal_type(x == None)  # expect-type: Tensor[bool_, (B, 3)]
    reveal_type(x is None)  # expect-type: bool=False
    return x
