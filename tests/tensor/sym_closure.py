# A nested function reads n from its enclosing function: the symbol stays.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def outer(x: Tensor[f32, (N, D)]):
    n = x.shape[0]

    def make():
        return zeros((n, 2))

    reveal_type(make())  # expect-type: Tensor[f32, (N, 2)]
    reveal_type((lambda: ones((n,)))())  # expect-type: Tensor[f32, (N,)]
    return x
