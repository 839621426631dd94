# Misuses of the reshaping, triangular, pooling and activation ops added
# for real model code: each reports its kind at its line.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (B, T, C)], v: Tensor[f32, (N,)], h: Tensor[f32, (2, 3, 8, 8)]):
    a = x.view(-1, -1)  # expect-error: shape-mismatch
    b = h.view(5, 7)  # expect-error: shape-mismatch
    c = triu(v)  # expect-error: shape-mismatch
    d = avg_pool2d(h, 9)  # expect-error: shape-mismatch
    e = max_pool2d(h, 2, padding=3)  # expect-error: shape-mismatch
    f = avg_pool2d(v, 2)  # expect-error: shape-mismatch
    g = silu(h, "fast")  # expect-error: arity
    k = softplus(h, beta="2")  # expect-error: type-mismatch
    m = leaky_relu(h, negative_slope=None)  # expect-error: type-mismatch
    return x
