import math
from fathom import *

from config import D, FF


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


def make_layer():
    r = lambda *s: random_normal(s) * 0.1
    return (ones((D,)), zeros((D,)), r(D, D), r(D, D), r(D, D), r(D, D),
            ones((D,)), zeros((D,)), r(FF, D), zeros((FF,)), r(D, FF), zeros((D,)))
