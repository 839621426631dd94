# x.item() gives the one element as a Python number of the dtype's kind.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def it(x: Tensor[f32, ()], i: Tensor[i32, (1,)], m: Tensor[bool_, (1, 1)]):
    reveal_type(x.item())  # expect-type: f64
    reveal_type(i.item())  # expect-type: i64
    reveal_type(m.item())  # expect-type: bool
    reveal_type(reduce_sum(i).item() + 1)  # expect-type: i64
    return x


def bad(x: Tensor[f32, (3,)]):
    y = x.item()  # expect-error: type-mismatch
    return x
