# one_hot(ids, n, dtype=f32) is ids.shape + (n,).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def oh(ids: Tensor[i64, (B, T)], logits: Tensor[f32, (B, T, V)]):
    reveal_type(one_hot(ids, 10))  # expect-type: Tensor[f32, (B, T, 10)]
    reveal_type(one_hot(ids, 3, dtype=i32))  # expect-type: Tensor[i32, (B, T, 3)]
    reveal_type(one_hot(ids, logits.shape[-1]))  # expect-type: Tensor[f32, (B, T, V)]
    reveal_type(one_hot(2, 5))  # expect-type: Tensor[f32, (5,)]
    loss = -mean(reduce_sum(one_hot(ids, logits.shape[2]) * log_softmax(logits), axis=-1))
    reveal_type(loss)  # expect-type: Tensor[f32, ()]
    return ids
