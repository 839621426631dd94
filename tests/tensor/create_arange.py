# arange(n) is (n,) of i64; arange(a, b, s) has len(range(a, b, s)) items.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def main():
    reveal_type(arange(5))  # expect-type: Tensor[i64, (5,)]
    reveal_type(arange(2, 10))  # expect-type: Tensor[i64, (8,)]
    reveal_type(arange(0, 10, 3))  # expect-type: Tensor[i64, (4,)]
    reveal_type(arange(10, 0, -2))  # expect-type: Tensor[i64, (5,)]
    reveal_type(arange(5, 2))  # expect-type: Tensor[i64, (0,)]
    reveal_type(arange(-3))  # expect-type: Tensor[i64, (0,)]
    reveal_type(arange(4, dtype=f32))  # expect-type: Tensor[f32, (4,)]
    return 0


def sized(x: Tensor[f32, (N, 3)]):
    reveal_type(arange(x.shape[0]))  # expect-type: Tensor[i64, (N,)]
    reveal_type(arange(len(x)))  # expect-type: Tensor[i64, (N,)]
    reveal_type(arange(1, x.shape[0]))  # expect-type: Tensor[i64, (?,)]
    return x
