# gamma/beta must match the last dims of x; x must be a float tensor.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (B, T, D)], g: Tensor[f32, (E,)], g4: Tensor[f32, (4,)], i: Tensor[i32, (2, 4)],
        h: Tensor[f16, (D,)]):
    a = layer_norm(x, g, g)  # expect-error: shape-mismatch
    b = layer_norm(x, g4, None)  # expect-error: shape-mismatch
    c = layer_norm(i, g4, g4)  # expect-error: type-mismatch
    d = layer_norm(x, h, h)  # expect-error: dtype-mismatch
    e = layer_norm(x, None, None, "eps")  # expect-error: type-mismatch
    return x
