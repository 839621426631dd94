# Integer tensors and lists index as numpy's advanced indexing; a bool_
# mask selects an unknown number of items.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def adv(x: Tensor[f32, (B, T, D)], ids: Tensor[i64, (K,)], mask: Tensor[bool_, (B, T)],
        m1: Tensor[bool_, (B,)], idx2: Tensor[i32, (2, 3)]):
    reveal_type(x[ids])  # expect-type: Tensor[f32, (K, T, D)]
    reveal_type(x[:, ids])  # expect-type: Tensor[f32, (B, K, D)]
    reveal_type(x[idx2])  # expect-type: Tensor[f32, (2, 3, T, D)]
    reveal_type(x[mask])  # expect-type: Tensor[f32, (?, D)]
    reveal_type(x[m1])  # expect-type: Tensor[f32, (?, T, D)]
    reveal_type(x[(0, 2, 1),])  # expect-type: Tensor[f32, (3, T, D)]
    reveal_type(x[[0, 1]])  # expect-type: Tensor[f32, (2, T, D)]
    reveal_type(x[0, ids])  # expect-type: Tensor[f32, (K, D)]
    reveal_type(x[ids, :, ids])  # expect-type: Tensor[f32, (K, T)]
    reveal_type(x[ids, 0, :])  # expect-type: Tensor[f32, (K, D)]
    reveal_type(x[:, 0, ids])  # expect-type: Tensor[f32, (B, K)]
    reveal_type(x[ids, :, 0])  # expect-type: Tensor[f32, (K, T)]
    return x
