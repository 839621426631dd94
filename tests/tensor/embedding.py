# embedding(table, ids) = take(table, ids, axis=0).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def emb(table: Tensor[f32, (V, D)], ids: Tensor[i32, (B, T)], pos: Tensor[f32, (T, D)]):
    e = embedding(table, ids)
    reveal_type(e)  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(e + pos)  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(embedding(table, 0))  # expect-type: Tensor[f32, (D,)]
    reveal_type(embedding(table, ids[0]))  # expect-type: Tensor[f32, (T, D)]
    return table


def bad(table: Tensor[f32, (V, D)], ids: Tensor[f32, (B,)], pos: Tensor[f32, (S, D)]):
    a = embedding(table, ids)  # expect-error: type-mismatch
    b = embedding(table, (1, 2)) + pos  # expect-error: shape-mismatch
    return table
