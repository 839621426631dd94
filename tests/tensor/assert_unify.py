# assert x.shape[0] == y.shape[0] unifies the two symbols after it.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def add(x: Tensor[f32, (N, 3)], y: Tensor[f32, (M, 3)]):
    assert x.shape[0] == y.shape[0]
    reveal_type(y)  # expect-type: Tensor[f32, (N, 3)]
    reveal_type(x + y)  # expect-type: Tensor[f32, (N, 3)]
    return x + y


def add2(x: Tensor[f32, (N, 3)], y: Tensor[f32, (M, 3)]):
    assert y.shape[0] == x.shape[0], "batch sizes differ"
    reveal_type(concat((x, y), axis=1))  # expect-type: Tensor[f32, (N, 6)]
    return x
