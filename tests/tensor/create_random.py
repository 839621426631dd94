# random_normal / random_uniform: a shape, f32 unless dtype= says.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def main():
    reveal_type(random_normal((2, 3)))  # expect-type: Tensor[f32, (2, 3)]
    reveal_type(random_uniform((4,), dtype=f64))  # expect-type: Tensor[f64, (4,)]
    reveal_type(random_normal((2,), f16, mean=1.0, std=0.5))  # expect-type: Tensor[f16, (2,)]
    reveal_type(random_uniform((3, 3), low=-1.0, high=1.0))  # expect-type: Tensor[f32, (3, 3)]
    return 0


def noise(x: Tensor[f32, (B, T)]):
    b, t = x.shape
    reveal_type(random_normal((b, t)) + x)  # expect-type: Tensor[f32, (B, T)]
    reveal_type(random_uniform((t,)))  # expect-type: Tensor[f32, (T,)]
    return x
