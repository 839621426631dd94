# jit(f) is f; isinstance(x, Tensor) is decided; dtypes are type objects.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def double(x):
    return x * 2


@jit
def main(x: Tensor[f32, (B, 2)]):
    g = jit(double)
    reveal_type(g(x))  # expect-type: Tensor[f32, (B, 2)]
    reveal_type(isinstance(x, Tensor))  # expect-type: bool=True
    reveal_type(isinstance(3, Tensor))  # expect-type: bool=False
    reveal_type(isinstance(x, (int, Tensor)))  # expect-type: bool=True
    reveal_type(f32)  # expect-type: type=f32
    reveal_type(x.dtype == f64)  # expect-type: bool=False
    return x
