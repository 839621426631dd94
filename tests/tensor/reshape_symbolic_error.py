# Element counts that differ for every value of their symbols are an error:
# (B, T, 32) has B*T*32 elements, (B, T, 4, 32) has B*T*128.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def heads(x: Tensor[f32, (B, T, 32)]):
    b, t, d = x.shape
    bad = reshape(x, (b, t, 4, d))  # expect-error: shape-mismatch
    good = reshape(x, (b, t, 4, d // 4))
    reveal_type(good)  # expect-type: Tensor[f32, (B, T, 4, 8)]
    worse = reshape(x, (b, t + 1, d))  # expect-error: shape-mismatch
    maybe = reshape(x, (t, b * 32))
    reveal_type(maybe)  # expect-type: Tensor[f32, (T, 32*B)]
    return x


def minus(x: Tensor[f32, (B, T, 32)]):
    b, t, d = x.shape
    bad = reshape(x, (b, t, -1, 128))  # expect-error: shape-mismatch
    reveal_type(reshape(x, (b, t, -1, 8)))  # expect-type: Tensor[f32, (B, T, 4, 8)]
    reveal_type(reshape(x, (b, -1, 64)))  # expect-type: Tensor[f32, (B, T//2, 64)]
    return x
