# args: model.py
# `fathom check model.py` pulls in config.py and layers.py.
from __future__ import annotations
import math
from fathom import *

import config
from layers import encoder_layer, make_layer, positional_encoding


def encode(tokens, table, layers):
    keep = tokens != config.PAD                                      # (B, T) bool
    x = embedding(table, tokens) * math.sqrt(config.D) + positional_encoding(tokens.shape[1])
    for layer in layers:
        x = encoder_layer(x, keep, layer)
    w = expand_dims(cast(keep, f32), -1)
    return reduce_sum(x * w, axis=1) / maximum(reduce_sum(w, axis=1), 1.0)


@jit
def sentence_embedding(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (40, 16)]):
    layers = (make_layer(), make_layer())
    out = encode(tokens, table, layers)
    return out


if __name__ == "__main__":
    tokens = cast(random_uniform((3, 7)) * config.VOCAB, i64)
    out = sentence_embedding(tokens, random_normal((config.VOCAB, config.D)))
    assert out.shape == (3, config.D) and out.dtype == f32
    print("transformer encoder ok")
