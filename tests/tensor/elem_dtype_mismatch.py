# Tensor-tensor operations need one dtype: use cast.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def bad(a: Tensor[f32, (3,)], b: Tensor[f64, (3,)], i: Tensor[i32, (3,)], j: Tensor[i64, (3,)]):
    s = a + b  # expect-error: dtype-mismatch
    t = i * j  # expect-error: dtype-mismatch
    u = a < b  # expect-error: dtype-mismatch
    reveal_type(a + cast(b, f32))  # expect-type: Tensor[f32, (3,)]
    reveal_type(cast(i, i64) - j)  # expect-type: Tensor[i64, (3,)]
    return a
