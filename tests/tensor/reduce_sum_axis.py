# reduce_sum / sum: axis None reduces everything; an int axis drops that dim.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sums(x: Tensor[f32, (B, T, D)]):
    reveal_type(reduce_sum(x))  # expect-type: Tensor[f32, ()]
    reveal_type(reduce_sum(x, 0))  # expect-type: Tensor[f32, (T, D)]
    reveal_type(reduce_sum(x, axis=1))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(reduce_sum(x, axis=2))  # expect-type: Tensor[f32, (B, T)]
    reveal_type(x.sum())  # expect-type: Tensor[f32, ()]
    reveal_type(x.sum(axis=0))  # expect-type: Tensor[f32, (T, D)]
    reveal_type(x.reduce_sum(1))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(mean(x, axis=None))  # expect-type: Tensor[f32, ()]
    return x
