# ** broadcasts like the other operators; an integer tensor to a negative
# integer power is an error (numpy raises).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def powers(x: Tensor[f32, (3,)], i: Tensor[i32, (3,)]):
    reveal_type(x ** 2)  # expect-type: Tensor[f32, (3,)]
    reveal_type(x ** 0.5)  # expect-type: Tensor[f32, (3,)]
    reveal_type(2.0 ** x)  # expect-type: Tensor[f32, (3,)]
    reveal_type(i ** 2)  # expect-type: Tensor[i32, (3,)]
    reveal_type(i ** i)  # expect-type: Tensor[i32, (3,)]
    reveal_type(i ** 0.5)  # expect-type: Tensor[f32, (3,)]
    return x


def bad(i: Tensor[i32, (3,)]):
    y = i ** -1  # expect-error: type-mismatch
    return i
