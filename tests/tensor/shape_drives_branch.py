# x.shape[i] folds to a constant when known, so it decides branches and
# loop trip counts.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pick(x: Tensor[f32, (3, 4)]):
    if x.shape[0] == 3:
        r = x
    else:
        r = "never"
    reveal_type(r)  # expect-type: Tensor[f32, (3, 4)]
    total = 0
    for i in range(x.shape[1]):
        total += i
    reveal_type(total)  # expect-type: i64=6
    if x.ndim == 2 and x.size > 10:
        s = 1
    else:
        s = 2
    reveal_type(s)  # expect-type: i64=1
    return x


def rows(x: Tensor[f32, (B, 4)]):
    n = 0
    for i in range(x.shape[0]):
        n += 1
    reveal_type(n)  # expect-type: i64
    return x
