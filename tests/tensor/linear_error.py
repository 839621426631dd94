# linear's x last dim must equal w's in-features; w is 2-d; b fits the out dim.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (B, D)], w: Tensor[f32, (H, E)], w2: Tensor[f32, (H, D)], b: Tensor[f32, (K,)],
        w3: Tensor[f32, (D,)], wd: Tensor[f64, (H, D)]):
    a = linear(x, w)  # expect-error: shape-mismatch
    c = linear(x, w2, b)  # expect-error: shape-mismatch
    d = linear(x, w3)  # expect-error: shape-mismatch
    e = linear(x, wd)  # expect-error: dtype-mismatch
    return x
