# sum of integer and bool tensors is i64; mean var std of them f32;
# max min keep the dtype; argmax is i64.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def kinds(i: Tensor[i32, (5,)], m: Tensor[bool_, (5,)], h: Tensor[f16, (5,)], u: Tensor[u8, (5,)]):
    reveal_type(reduce_sum(i))  # expect-type: Tensor[i64, ()]
    reveal_type(sum(m))  # expect-type: Tensor[i64, ()]
    reveal_type(reduce_sum(h))  # expect-type: Tensor[f16, ()]
    reveal_type(mean(i))  # expect-type: Tensor[f32, ()]
    reveal_type(var(m))  # expect-type: Tensor[f32, ()]
    reveal_type(std(h))  # expect-type: Tensor[f16, ()]
    reveal_type(max(u))  # expect-type: Tensor[u8, ()]
    reveal_type(min(i))  # expect-type: Tensor[i32, ()]
    reveal_type(argmax(h))  # expect-type: Tensor[i64, ()]
    return i
