"""Multi-head causal self-attention: head split with reshape/transpose, a
causal mask built from arange comparisons and where, output projection."""
from __future__ import annotations

import math
from fathom import *

HEADS = 4
DIM = 32
HEAD_DIM = 8


def split_heads(x):
    b, t, d = x.shape
    return transpose(reshape(x, (b, t, HEADS, HEAD_DIM)), (0, 2, 1, 3))   # (B, H, T, Dh)


def merge_heads(x):
    b, h, t, dh = x.shape
    return reshape(transpose(x, (0, 2, 1, 3)), (b, t, h * dh))


def causal_mask(t):
    rows = expand_dims(arange(t), 1)
    cols = expand_dims(arange(t), 0)
    return cols <= rows                                   # (T, T) bool


@jit
def attention(x: Tensor[f32, (B, T, 32)], w_qkv: Tensor[f32, (96, 32)],
              w_o: Tensor[f32, (32, 32)], b_o: Tensor[f32, (32,)]):
    qkv = linear(x, w_qkv)                                # (B, T, 3*DIM)
    q, k, v = split(qkv, 3, axis=-1)
    q = split_heads(q)
    k = split_heads(k)
    v = split_heads(v)
    scores = q @ transpose(k, (0, 1, 3, 2)) / math.sqrt(HEAD_DIM)   # (B, H, T, T)
    mask = causal_mask(x.shape[1])
    scores = where(mask, scores, full(scores.shape, -1e9, f32))
    probs = softmax(scores, axis=-1)
    out = merge_heads(probs @ v)
    return linear(out, w_o, b_o), probs


if __name__ == "__main__":
    x = random_normal((2, 5, DIM))
    y, probs = attention(x, random_normal((3 * DIM, DIM)) * 0.1,
                         random_normal((DIM, DIM)) * 0.1, zeros((DIM,)))
    assert y.shape == (2, 5, DIM) and y.dtype == f32
    assert probs.shape == (2, HEADS, 5, 5)
    assert float(probs[0, 0, 0, 1]) == 0.0
    print("attention ok")
