# take(x, ids, axis=0): the axis is replaced by the shape of ids.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def tk(x: Tensor[f32, (V, D)], ids: Tensor[i64, (B, T)], i: Tensor[i32, (K,)]):
    reveal_type(take(x, ids))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(take(x, i, axis=1))  # expect-type: Tensor[f32, (V, K)]
    reveal_type(take(x, 0))  # expect-type: Tensor[f32, (D,)]
    reveal_type(take(x, (0, -1, 0)))  # expect-type: Tensor[f32, (3, D)]
    reveal_type(take(x, [0, 0], -1))  # expect-type: Tensor[f32, (V, 2)]
    reveal_type(x.take(i))  # expect-type: Tensor[f32, (K, D)]
    reveal_type(take(x, ids, axis=None))  # expect-type: Tensor[f32, (B, T)]
    return x
