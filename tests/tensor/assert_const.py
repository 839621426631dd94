# Asserting a dim equals an int makes the symbol that int after it.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def fixed(x: Tensor[f32, (N, D)]):
    assert x.shape[1] == 4
    reveal_type(x)  # expect-type: Tensor[f32, (N, 4)]
    reveal_type(x @ ones((4, 2)))  # expect-type: Tensor[f32, (N, 2)]
    n = x.shape[0]
    assert n == 8
    reveal_type(x)  # expect-type: Tensor[f32, (8, 4)]
    reveal_type(x.shape)  # expect-type: tuple[i64=8, i64=4]
    return x
