# & | ^ ~ on bool and integer tensors; << >> on integer tensors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def bits(m: Tensor[bool_, (4,)], n: Tensor[bool_, (4,)], i: Tensor[i32, (4,)], u: Tensor[u8, (2, 4)]):
    reveal_type(m & n)  # expect-type: Tensor[bool_, (4,)]
    reveal_type(m | n)  # expect-type: Tensor[bool_, (4,)]
    reveal_type(m ^ n)  # expect-type: Tensor[bool_, (4,)]
    reveal_type(~m)  # expect-type: Tensor[bool_, (4,)]
    reveal_type(i & 7)  # expect-type: Tensor[i32, (4,)]
    reveal_type(~i)  # expect-type: Tensor[i32, (4,)]
    reveal_type(i << 2)  # expect-type: Tensor[i32, (4,)]
    reveal_type(u >> 1)  # expect-type: Tensor[u8, (2, 4)]
    reveal_type(u | 1)  # expect-type: Tensor[u8, (2, 4)]
    return m
