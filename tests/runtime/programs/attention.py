# A causal multi-head self-attention block with a residual and layer norm.
from __future__ import annotations

import math

from fathom import *

HEADS = 2


def split_heads(x, heads):
    b, t, d = x.shape
    return transpose(reshape(x, (b, t, heads, d // heads)), (0, 2, 1, 3))


def merge_heads(x):
    b, h, t, dh = x.shape
    return reshape(transpose(x, (0, 2, 1, 3)), (b, t, h * dh))


@jit
def attention(x: Tensor[f32, (B, T, 8)], wq: Tensor[f32, (8, 8)], wk: Tensor[f32, (8, 8)],
              wv: Tensor[f32, (8, 8)], wo: Tensor[f32, (8, 8)],
              gamma: Tensor[f32, (8,)], beta: Tensor[f32, (8,)]):
    q = split_heads(x @ wq, HEADS)
    k = split_heads(x @ wk, HEADS)
    v = split_heads(x @ wv, HEADS)
    t = x.shape[1]
    scores = q @ transpose(k, (0, 1, 3, 2)) / math.sqrt(q.shape[-1])
    causal = arange(t)[:, None] >= arange(t)[None, :]
    scores = where(causal, scores, -1e9)
    att = softmax(scores, axis=-1)
    h = merge_heads(att @ v)
    return layer_norm(x + linear(h, wo), gamma, beta, 1e-5), att


if __name__ == "__main__":
    x = random_normal((2, 5, 8))
    ws = tuple(random_normal((8, 8)) * 0.3 for _ in range(4))
    out, att = attention(x, *ws, ones((8,)), zeros((8,)))
    assert out.shape == (2, 5, 8) and out.dtype == f32
    assert att.shape == (2, HEADS, 5, 5) and att.dtype == f32
    assert abs(float(reduce_sum(att)) - 2 * HEADS * 5) < 1e-3
    assert float(max(abs(mean(out, axis=-1)))) < 1e-4
    assert float(att[0, 0, 0, 1]) == 0.0
    print("attention ok")
