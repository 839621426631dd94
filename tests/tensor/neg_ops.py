# fathom's neg is unary minus: it keeps the dtype (not for bool_ tensors).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def ng(x: Tensor[f32, (3,)], i: Tensor[i8, (2, 2)], m: Tensor[bool_, (2,)]):
    reveal_type(neg(x))  # expect-type: Tensor[f32, (3,)]
    reveal_type(neg(i))  # expect-type: Tensor[i8, (2, 2)]
    reveal_type(neg(2.5))  # expect-type: f64=-2.5
    reveal_type(+x)  # expect-type: Tensor[f32, (3,)]
    return x


def bad(m: Tensor[bool_, (2,)]):
    b = neg(m)  # expect-error: type-mismatch
    return m
