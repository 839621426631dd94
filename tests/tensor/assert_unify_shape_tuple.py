# assert x.shape == y.shape unifies every dim.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def same(x: Tensor[f32, (A, B)], y: Tensor[f32, (C, D)]):
    assert x.shape == y.shape
    reveal_type(y)  # expect-type: Tensor[f32, (A, B)]
    reveal_type(x * y)  # expect-type: Tensor[f32, (A, B)]
    return x
