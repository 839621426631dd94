# for row in x iterates the first axis: a known size unrolls exactly.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def rows(x: Tensor[f32, (3, 4)], y: Tensor[f32, (B, T)]):
    acc = zeros((4,))
    for row in x:
        reveal_type(row)  # expect-type: Tensor[f32, (4,)]
        acc = acc + row
    reveal_type(acc)  # expect-type: Tensor[f32, (4,)]
    for r in y:
        reveal_type(r)  # expect-type: Tensor[f32, (T,)]
    for i, r in enumerate(x):
        reveal_type(i)  # expect-type: i64=0 | i64=1 | i64=2
    a, b, c = x
    reveal_type(c)  # expect-type: Tensor[f32, (4,)]
    reveal_type([r * 2 for r in x])  # expect-type: list[Tensor[f32, (4,)], Tensor[f32, (4,)], Tensor[f32, (4,)]]
    return x
