# Negative axes count from the end.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def neg(x: Tensor[f32, (2, 3, 4)]):
    reveal_type(reduce_sum(x, -1))  # expect-type: Tensor[f32, (2, 3)]
    reveal_type(mean(x, axis=-2))  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(min(x, -3))  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(std(x, axis=(-1, 0)))  # expect-type: Tensor[f32, (3,)]
    return x
