# (N, K) @ (K, M) is (N, M); matmul() is the same as @.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def mm(a: Tensor[f32, (4, 8)], b: Tensor[f32, (8, 2)], i: Tensor[i32, (3, 3)]):
    reveal_type(a @ b)  # expect-type: Tensor[f32, (4, 2)]
    reveal_type(matmul(a, b))  # expect-type: Tensor[f32, (4, 2)]
    reveal_type(a.matmul(b))  # expect-type: Tensor[f32, (4, 2)]
    reveal_type(b.T @ a.T)  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(i @ i)  # expect-type: Tensor[i32, (3, 3)]
    reveal_type(a @ b @ ones((2, 5)))  # expect-type: Tensor[f32, (4, 5)]
    return a
