# zeros/ones: a shape tuple (or one int), dtype f32 unless given.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def main():
    reveal_type(zeros((2, 3)))  # expect-type: Tensor[f32, (2, 3)]
    reveal_type(ones((4,)))  # expect-type: Tensor[f32, (4,)]
    reveal_type(zeros(5))  # expect-type: Tensor[f32, (5,)]
    reveal_type(zeros(()))  # expect-type: Tensor[f32, ()]
    reveal_type(ones((2, 3), dtype=i32))  # expect-type: Tensor[i32, (2, 3)]
    reveal_type(zeros((2, 3), f16))  # expect-type: Tensor[f16, (2, 3)]
    reveal_type(ones((1, 0, 2), bool_))  # expect-type: Tensor[bool_, (1, 0, 2)]
    reveal_type(zeros(shape=(3, 3), dtype=u8))  # expect-type: Tensor[u8, (3, 3)]
    reveal_type(zeros((2,), dtype=float))  # expect-type: Tensor[f64, (2,)]
    reveal_type(ones((2,), dtype=int))  # expect-type: Tensor[i64, (2,)]
    n = 3
    reveal_type(zeros((n, n + 1)))  # expect-type: Tensor[f32, (3, 4)]
    return 0
