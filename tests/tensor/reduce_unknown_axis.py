# An axis that is not a constant: the rank is still known, the dims not.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pick(x: Tensor[f32, (2, 3, 4)], k: int, keep: bool):
    reveal_type(reduce_sum(x, axis=k))  # expect-type: Tensor[f32, (?, ?)]
    reveal_type(mean(x, k, True))  # expect-type: Tensor[f32, (?, ?, ?)]
    reveal_type(reduce_sum(x, 0, keep))  # expect-type: Tensor[f32, ...]
    return x
