# Float functions keep float dtypes and give f32 for integer tensors;
# neg abs relu keep the dtype; on Python numbers they give numbers.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def math_(h: Tensor[f16, (2, 3)], i: Tensor[i32, (3,)], d: Tensor[f64, (N,)]):
    reveal_type(exp(h))  # expect-type: Tensor[f16, (2, 3)]
    reveal_type(log(i))  # expect-type: Tensor[f32, (3,)]
    reveal_type(sqrt(d))  # expect-type: Tensor[f64, (N,)]
    reveal_type(tanh(i))  # expect-type: Tensor[f32, (3,)]
    reveal_type(sigmoid(h))  # expect-type: Tensor[f16, (2, 3)]
    reveal_type(gelu(d))  # expect-type: Tensor[f64, (N,)]
    reveal_type(sin(i) + cos(i))  # expect-type: Tensor[f32, (3,)]
    reveal_type(relu(i))  # expect-type: Tensor[i32, (3,)]
    reveal_type(neg(h))  # expect-type: Tensor[f16, (2, 3)]
    reveal_type(-i)  # expect-type: Tensor[i32, (3,)]
    reveal_type(abs(d))  # expect-type: Tensor[f64, (N,)]
    reveal_type(exp(1.0))  # expect-type: f64
    reveal_type(relu(-2))  # expect-type: i64
    reveal_type(h.exp().relu())  # expect-type: Tensor[f16, (2, 3)]
    return h
