# expect-error at line 32: shape-mismatch
# Planted bug: the attention scores multiply q by k instead of k transposed.
"""A pre-norm transformer encoder block: multi-head self-attention with an
optional causal mask, then a GELU feed-forward network, each with a
residual connection.  Batch B and sequence length T are symbolic; the model
width is 32 with 4 heads.
"""
from __future__ import annotations

import math

from fathom import *

D_MODEL = 32
HEADS = 4
D_FF = 64
EPS = 1e-5


def split_heads(x, heads):
    b, t, d = x.shape
    return transpose(reshape(x, (b, t, heads, d // heads)), (0, 2, 1, 3))


def merge_heads(x):
    b, h, t, dh = x.shape
    return reshape(transpose(x, (0, 2, 1, 3)), (b, t, h * dh))


def attention(q, k, v, causal):
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ k) * scale
    if causal:
        t = q.shape[2]
        keep = arange(t)[:, None] >= arange(t)[None, :]
        scores = where(keep, scores, -1e9)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def self_attention(x, wqkv, wo, causal):
    q, k, v = split(linear(x, wqkv), 3, axis=-1)
    out, weights = attention(split_heads(q, HEADS), split_heads(k, HEADS),
                             split_heads(v, HEADS), causal)
    return linear(merge_heads(out), wo), weights


def feed_forward(x, w1, b1, w2, b2):
    return linear(gelu(linear(x, w1, b1)), w2, b2)


@jit
def encoder_block(x: Tensor[f32, (B, T, 32)],
                  ln1_g: Tensor[f32, (32,)], ln1_b: Tensor[f32, (32,)],
                  wqkv: Tensor[f32, (96, 32)], wo: Tensor[f32, (32, 32)],
                  ln2_g: Tensor[f32, (32,)], ln2_b: Tensor[f32, (32,)],
                  w1: Tensor[f32, (64, 32)], b1: Tensor[f32, (64,)],
                  w2: Tensor[f32, (32, 64)], b2: Tensor[f32, (32,)]):
    h, weights = self_attention(layer_norm(x, ln1_g, ln1_b, EPS), wqkv, wo, True)
    x = x + h
    x = x + feed_forward(layer_norm(x, ln2_g, ln2_b, EPS), w1, b1, w2, b2)
    return x, weights


@jit
def pooled_logits(x: Tensor[f32, (B, T, 32)], mask: Tensor[bool_, (B, T)],
                  w_out: Tensor[f32, (C, 32)]):
    m = expand_dims(cast(mask, f32), -1)
    counts = maximum(reduce_sum(m, axis=1), 1.0)
    pooled = reduce_sum(x * m, axis=1) / counts
    return log_softmax(linear(pooled, w_out), axis=-1)


if __name__ == "__main__":
    b, t = 2, 5
    x = random_normal((b, t, D_MODEL))
    params = (ones((D_MODEL,)), zeros((D_MODEL,)),
              random_normal((3 * D_MODEL, D_MODEL)) * 0.1, random_normal((D_MODEL, D_MODEL)) * 0.1,
              ones((D_MODEL,)), zeros((D_MODEL,)),
              random_normal((D_FF, D_MODEL)) * 0.1, zeros((D_FF,)),
              random_normal((D_MODEL, D_FF)) * 0.1, zeros((D_MODEL,)))
    y, weights = encoder_block(x, *params)
    assert y.shape == (b, t, D_MODEL) and y.dtype == f32
    assert weights.shape == (b, HEADS, t, t)
    assert abs(float(reduce_sum(weights)) - b * HEADS * t) < 1e-3
    assert float(weights[0, 0, 0, 1]) == 0.0
    mask = arange(t)[None, :] < full((b, 1), 3)
    logp = pooled_logits(y, mask, random_normal((7, D_MODEL)))
    assert logp.shape == (b, 7) and logp.dtype == f32
    print("transformer ok")
