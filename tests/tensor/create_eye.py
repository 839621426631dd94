# eye(n, m=None, dtype=f32)
from __future__ import annotations
from fathom import *
from typing import reveal_type


def main():
    reveal_type(eye(3))  # expect-type: Tensor[f32, (3, 3)]
    reveal_type(eye(2, 5))  # expect-type: Tensor[f32, (2, 5)]
    reveal_type(eye(4, dtype=i32))  # expect-type: Tensor[i32, (4, 4)]
    reveal_type(eye(2, None, f64))  # expect-type: Tensor[f64, (2, 2)]
    return 0


def square(x: Tensor[f32, (N, D)]):
    reveal_type(eye(x.shape[1]))  # expect-type: Tensor[f32, (D, D)]
    reveal_type(x @ eye(x.shape[1]))  # expect-type: Tensor[f32, (N, D)]
    return x
