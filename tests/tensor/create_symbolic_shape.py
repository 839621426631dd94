# A dim read from x.shape keeps its symbol when it builds a new shape:
# x.shape[0] is a plain i64, but zeros() sees where it came from.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def build(x: Tensor[f32, (N, D)]):
    n = x.shape[0]
    reveal_type(n)  # expect-type: i64
    reveal_type(zeros((n, 3)))  # expect-type: Tensor[f32, (N, 3)]
    reveal_type(ones((x.shape[1], n)))  # expect-type: Tensor[f32, (D, N)]
    reveal_type(zeros(x.shape))  # expect-type: Tensor[f32, (N, D)]
    reveal_type(zeros((2 * n, n + 1)))  # expect-type: Tensor[f32, (2*N, N+1)]
    reveal_type(zeros((n // 2, n * x.shape[1])))  # expect-type: Tensor[f32, (N//2, N*D)]
    reveal_type(full((len(x),), 0.0))  # expect-type: Tensor[f32, (N,)]
    reveal_type(zeros((x.size,)))  # expect-type: Tensor[f32, (N*D,)]
    reveal_type(zeros(x.shape[-1]))  # expect-type: Tensor[f32, (D,)]
    return x
