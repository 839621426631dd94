# matmul needs tensors of rank 1 or more: a number or a 0-d tensor is an error.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 3)], s: Tensor[f32, ()], s2: Tensor[f32, ()]):
    a = x @ 2.0  # expect-error: type-mismatch
    b = 3 @ x  # expect-error: type-mismatch
    c = s @ x  # expect-error: shape-mismatch
    d = matmul(x, s2)  # expect-error: shape-mismatch
    return x
