# + - * // of dims are exact expressions.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ar(x: Tensor[f32, (N, D)]):
    n, d = x.shape
    reveal_type(zeros((n + 2, d - 1)))  # expect-type: Tensor[f32, (N+2, D-1)]
    reveal_type(zeros((2 * n * d,)))  # expect-type: Tensor[f32, (2*N*D,)]
    reveal_type(zeros((n * n,)))  # expect-type: Tensor[f32, (N*N,)]
    reveal_type(zeros(((n + 1) // 2,)))  # expect-type: Tensor[f32, ((N+1)//2,)]
    reveal_type(zeros((n - n + 3,)))  # expect-type: Tensor[f32, (3,)]
    reveal_type(concat((x, zeros((n, 2))), axis=1))  # expect-type: Tensor[f32, (N, D+2)]
    reveal_type(reshape(x, (n * d // 2, 2)))  # expect-type: Tensor[f32, ((N*D)//2, 2)]
    return x
