# Comparing a dim with itself is decided: the assert always holds and a
# branch on it takes one side.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def same(x: Tensor[f32, (N, 3)], y: Tensor[f32, (N, 5)]):
    assert x.shape[0] == y.shape[0]
    if x.shape[0] == y.shape[0]:
        r = concat((x, y), axis=1)
    else:
        r = "never"
    reveal_type(r)  # expect-type: Tensor[f32, (N, 8)]
    return r
