# cast(x, dtype) (and x.astype) changes the dtype only; a number becomes a
# 0-d tensor.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def cv(x: Tensor[f32, (B, 3)], i: Tensor[i64, (4,)]):
    reveal_type(cast(x, f16))  # expect-type: Tensor[f16, (B, 3)]
    reveal_type(cast(i, f32) / 2)  # expect-type: Tensor[f32, (4,)]
    reveal_type(cast(x > 0, i32))  # expect-type: Tensor[i32, (B, 3)]
    reveal_type(x.astype(bf16))  # expect-type: Tensor[bf16, (B, 3)]
    reveal_type(x.cast(f64))  # expect-type: Tensor[f64, (B, 3)]
    reveal_type(cast(x, float))  # expect-type: Tensor[f64, (B, 3)]
    reveal_type(cast(3, i8))  # expect-type: Tensor[i8, ()]
    reveal_type(cast(x, x.dtype))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(cast(i, dtype=u8))  # expect-type: Tensor[u8, (4,)]
    return x
