# bool_ tensors: + * stay bool_ (logical or/and, as numpy), / gives f32.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def logic(m: Tensor[bool_, (3,)], n: Tensor[bool_, (3,)]):
    reveal_type(m + n)  # expect-type: Tensor[bool_, (3,)]
    reveal_type(m * n)  # expect-type: Tensor[bool_, (3,)]
    reveal_type(m / n)  # expect-type: Tensor[f32, (3,)]
    reveal_type(maximum(m, n))  # expect-type: Tensor[bool_, (3,)]
    reveal_type(m * 1.0)  # expect-type: Tensor[f32, (3,)]
    reveal_type(abs(m))  # expect-type: Tensor[bool_, (3,)]
    return m
