# A tensor that may hold one element has an undetermined truth value: both
# branches are analysed.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def cond(x: Tensor[f32, (1,)], s: Tensor[bool_, ()], v: Tensor[f32, (N,)]):
    if x > 0:
        r = 1
    else:
        r = 2
    reveal_type(r)  # expect-type: i64
    reveal_type(bool(s))  # expect-type: bool
    reveal_type(not s)  # expect-type: bool
    reveal_type(reduce_sum(v) > 0 and s)  # expect-type: Tensor[bool_, ()]
    while reduce_sum(v) > 1.0:
        v = v / 2
    reveal_type(v)  # expect-type: Tensor[f32, (N,)]
    if v[0] > 0:
        return v
    return -v
