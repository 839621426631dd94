"""A pre-norm transformer encoder: sinusoidal positional encoding built
from arange, two encoder layers applied in a for loop over a tuple of layer
parameters, padding mask from token ids, mean pooling over valid tokens."""
from __future__ import annotations

import math
from fathom import *

D = 16
FF = 32
VOCAB = 40
PAD = 0


def positional_encoding(t):
    pos = cast(expand_dims(arange(t), 1), f32)                      # (T, 1)
    i = cast(expand_dims(arange(D // 2), 0), f32)                   # (1, D/2)
    angle = pos / (10000.0 ** (2.0 * i / D))                        # (T, D/2)
    pe = stack((sin(angle), cos(angle)), axis=-1)                   # (T, D/2, 2)
    return reshape(pe, (t, D))


def self_attention(x, keep, wq, wk, wv, wo):
    q = x @ wq
    k = x @ wk
    v = x @ wv
    scores = q @ transpose(k, (0, 2, 1)) / math.sqrt(D)             # (B, T, T)
    scores = where(expand_dims(keep, 1), scores, -1e9)
    return softmax(scores, axis=-1) @ v @ wo


def encoder_layer(x, keep, layer):
    g1, be1, wq, wk, wv, wo, g2, be2, w1, b1, w2, b2 = layer
    x = x + self_attention(layer_norm(x, g1, be1, 1e-5), keep, wq, wk, wv, wo)
    h = layer_norm(x, g2, be2, 1e-5)
    return x + linear(relu(linear(h, w1, b1)), w2, b2)


def encode(tokens, table, layers):
    keep = tokens != PAD                                             # (B, T) bool
    x = embedding(table, tokens) * math.sqrt(D) + positional_encoding(tokens.shape[1])
    for layer in layers:
        x = encoder_layer(x, keep, layer)
    w = expand_dims(cast(keep, f32), -1)
    return reduce_sum(x * w, axis=1) / maximum(reduce_sum(w, axis=1), 1.0)


def make_layer():
    r = lambda *s: random_normal(s) * 0.1
    return (ones((D,)), zeros((D,)), r(D, D), r(D, D), r(D, D), r(D, D),
            ones((D,)), zeros((D,)), r(FF, D), zeros((FF,)), r(D, FF), zeros((D,)))


@jit
def sentence_embedding(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (40, 16)]):
    layers = (make_layer(), make_layer())
    return encode(tokens, table, layers)


if __name__ == "__main__":
    tokens = cast(random_uniform((3, 7)) * VOCAB, i64)
    out = sentence_embedding(tokens, random_normal((VOCAB, D)))
    assert out.shape == (3, D) and out.dtype == f32
    print("transformer encoder ok")
