"""Token embedding plus sinusoidal positional encoding, built by a helper
from the sequence length read off the input (x.shape[1]): the helper's
result has the caller's symbolic length T, so adding it to the embedded
tokens is checked dim by dim."""
from __future__ import annotations

import math

from fathom import *

DIM = 32


def positional_encoding(t, d):
    # the Annotated Transformer's table: sines on even columns, cosines on odd
    pe = zeros((t, d))                                   # (T, D)
    pos = expand_dims(arange(t), 1).astype(f32)          # (T, 1)
    div = exp(arange(0, d, 2).astype(f32) * (-math.log(10000.0) / d))  # (D/2,)
    pe[:, 0::2] = sin(pos * div)
    pe[:, 1::2] = cos(pos * div)
    return pe


def embed(tokens, table):
    return take(table, tokens, axis=0)                   # (B, T, D)


@jit
def encode(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (V, 32)]):
    x = embed(tokens, table)
    pe = positional_encoding(tokens.shape[1], DIM)
    reveal_type(pe)  # expect-type: Tensor[f32, (7, 32)] | Tensor[f32, (T, 32)]
    return x + pe


if __name__ == "__main__":
    tokens = reshape(arange(14) % 50, (2, 7))
    y = encode(tokens, random_normal((50, DIM)))
    assert y.shape == (2, 7, DIM) and y.dtype == f32
    print("positional encoding ok")
