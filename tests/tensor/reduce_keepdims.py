# keepdims=True keeps the reduced dims as 1.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def keep(x: Tensor[f32, (B, T, D)]):
    reveal_type(reduce_sum(x, axis=1, keepdims=True))  # expect-type: Tensor[f32, (B, 1, D)]
    reveal_type(mean(x, -1, True))  # expect-type: Tensor[f32, (B, T, 1)]
    reveal_type(x.max(axis=0, keepdims=True))  # expect-type: Tensor[f32, (1, T, D)]
    reveal_type(reduce_sum(x, keepdims=True))  # expect-type: Tensor[f32, (1, 1, 1)]
    reveal_type(x - mean(x, axis=-1, keepdims=True))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(argmax(x, axis=2, keepdims=True))  # expect-type: Tensor[i64, (B, T, 1)]
    return x
