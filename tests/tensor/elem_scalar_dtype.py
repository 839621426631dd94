# A Python scalar takes the tensor's dtype when the kinds agree; an int
# tensor with a float scalar is f32 (DSL rule); bool tensors with ints i64.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def scal(h: Tensor[f16, (2,)], i: Tensor[i32, (2,)], u: Tensor[u8, (2,)], m: Tensor[bool_, (2,)],
         d: Tensor[f64, (2,)]):
    reveal_type(h + 1.5)  # expect-type: Tensor[f16, (2,)]
    reveal_type(h * 2)  # expect-type: Tensor[f16, (2,)]
    reveal_type(i + 1)  # expect-type: Tensor[i32, (2,)]
    reveal_type(i + 1.5)  # expect-type: Tensor[f32, (2,)]
    reveal_type(3 * u)  # expect-type: Tensor[u8, (2,)]
    reveal_type(i + True)  # expect-type: Tensor[i32, (2,)]
    reveal_type(m * 2)  # expect-type: Tensor[i64, (2,)]
    reveal_type(m + 0.5)  # expect-type: Tensor[f32, (2,)]
    reveal_type(m & True)  # expect-type: Tensor[bool_, (2,)]
    reveal_type(d - 1)  # expect-type: Tensor[f64, (2,)]
    reveal_type(1 - d)  # expect-type: Tensor[f64, (2,)]
    return h
