# None defaults tested with `is None` / `is not None`, keyword overrides and
# string switches, as model code writes them: each call site gets its own
# context, and the mask's shape is checked only where one is passed.
from __future__ import annotations
import math
from fathom import *
from typing import reveal_type


def attention(q, k, v, mask=None, scale=None):
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    s = q @ transpose(k, (0, 2, 1)) * scale
    if mask is not None:
        s = where(mask, s, -1e9)  # expect-error: shape-mismatch
    return softmax(s) @ v


def linear_opt(x, w, b=None):
    y = x @ w.T
    if b is not None:
        y = y + b
    return y


def dense_block(x, ws, act="relu"):
    for w in ws:
        x = linear_opt(x, w)
        x = relu(x) if act == "relu" else tanh(x)
    return x


@jit
def run(q: Tensor[f32, (B, T, 8)], m: Tensor[bool_, (B, T, T)], w: Tensor[f32, (8, 8)], b: Tensor[f32, (8,)]):
    reveal_type(attention(q, q, q))  # expect-type: Tensor[f32, (B, T, 8)]
    reveal_type(attention(q, q, q, m))  # expect-type: Tensor[f32, (B, T, 8)]
    reveal_type(attention(q, q, q, mask=m, scale=0.5))  # expect-type: Tensor[f32, (B, T, 8)]
    reveal_type(linear_opt(q, w))  # expect-type: Tensor[f32, (B, T, 8)]
    reveal_type(linear_opt(q, w, b))  # expect-type: Tensor[f32, (B, T, 8)]
    reveal_type(dense_block(q, (w, w), act="tanh"))  # expect-type: Tensor[f32, (B, T, 8)]
    return q


def wrong_mask(q: Tensor[f32, (B, T, 8)], m: Tensor[bool_, (B, T, 4)]):
    return attention(q, q, q, mask=m)
