# Negative indices count from the end.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ix(x: Tensor[f32, (3, 4)], y: Tensor[f32, (B, T, D)]):
    reveal_type(x[-1])  # expect-type: Tensor[f32, (4,)]
    reveal_type(x[-3, -4])  # expect-type: Tensor[f32, ()]
    reveal_type(y[:, -1])  # expect-type: Tensor[f32, (B, D)]
    reveal_type(y[..., -1])  # expect-type: Tensor[f32, (B, T)]
    return x
