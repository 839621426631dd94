# A dim passed through a parameter is only an i64 there: contexts are
# shared by every caller with the same abstract arguments, so the symbol
# cannot be trusted inside, and the dim is `?`.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def make(n):
    return zeros((n, 2))


def outer(x: Tensor[f32, (N, 4)], y: Tensor[f32, (M, 4)]):
    reveal_type(make(x.shape[0]))  # expect-type: Tensor[f32, (?, 2)]
    reveal_type(make(y.shape[0]))  # expect-type: Tensor[f32, (?, 2)]
    reveal_type(make(3))  # expect-type: Tensor[f32, (3, 2)]
    return x
