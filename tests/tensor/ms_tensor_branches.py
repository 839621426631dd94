# Branches on tensor values and on shapes: joins of shapes and dtypes.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def maybe_pad(x, pad):
    if pad:
        x = concat((x, zeros((1, x.shape[1]))), axis=0)
    return x


def activation(x, kind):
    if kind == "relu":
        return relu(x)
    elif kind == "tanh":
        return tanh(x)
    elif kind == "gelu":
        return gelu(x)
    return x


def clipped_norm(g, max_norm):
    norm = sqrt(reduce_sum(g * g))
    if norm > max_norm:
        g = g * (max_norm / norm)
    return g


def by_rank(x):
    if x.ndim == 2:
        return reduce_sum(x, axis=1)
    return x


@jit
def run(x: Tensor[f32, (B, 8)], flag: bool, kind: str):
    a = maybe_pad(x, True)  # expect-type: Tensor[f32, (B+1, 8)]
    b = maybe_pad(x, flag)  # expect-type: Tensor[f32, (?, 8)]
    c = activation(x, kind)  # expect-type: Tensor[f32, (B, 8)]
    d = activation(x, "tanh")  # expect-type: Tensor[f32, (B, 8)]
    e = clipped_norm(x, 1.0)  # expect-type: Tensor[f32, (B, 8)]
    f = by_rank(x)  # expect-type: Tensor[f32, (B,)]
    h = by_rank(f)  # expect-type: Tensor[f32, (B,)]
    return a, b, c, d, e, f, h
