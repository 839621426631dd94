# expect-error at line 15: shape-mismatch
# Planted bug: input and hidden state are concatenated on the batch axis instead of the feature axis.
"""A GRU encoder over a batch-major sequence (while loop over time with
x[:, t]), returning every hidden state stacked and the final one."""
from __future__ import annotations

from fathom import *

EMB = 8
HID = 10
VOCAB = 30


def gru_cell(x, h, w_z, w_r, w_n, b_z, b_r, b_n):
    xh = concat((x, h), axis=0)                      # (B, EMB + HID)
    z = sigmoid(linear(xh, w_z, b_z))
    r = sigmoid(linear(xh, w_r, b_r))
    n = tanh(linear(concat((x, r * h), axis=-1), w_n, b_n))
    return (1.0 - z) * n + z * h


@jit
def encode(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (30, 8)],
           w_z: Tensor[f32, (10, 18)], w_r: Tensor[f32, (10, 18)], w_n: Tensor[f32, (10, 18)],
           b_z: Tensor[f32, (10,)], b_r: Tensor[f32, (10,)], b_n: Tensor[f32, (10,)]):
    xs = embedding(table, tokens)                     # (B, T, EMB)
    h = zeros((tokens.shape[0], HID))
    states = []
    t = 0
    while t < tokens.shape[1]:
        h = gru_cell(xs[:, t], h, w_z, w_r, w_n, b_z, b_r, b_n)
        states.append(h)
        t += 1
    return stack(states, axis=1), h


@jit
def pooled(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (30, 8)],
           w_z: Tensor[f32, (10, 18)], w_r: Tensor[f32, (10, 18)], w_n: Tensor[f32, (10, 18)],
           b_z: Tensor[f32, (10,)], b_r: Tensor[f32, (10,)], b_n: Tensor[f32, (10,)]):
    states, last = encode(tokens, table, w_z, w_r, w_n, b_z, b_r, b_n)
    avg = mean(states, axis=1)
    return concat((avg, last), axis=1)


if __name__ == "__main__":
    table = random_normal((VOCAB, EMB))
    ws = [random_normal((HID, EMB + HID)) * 0.1 for _ in range(3)]
    bs = [zeros((HID,)) for _ in range(3)]
    tokens = cast(random_uniform((2, 5)) * VOCAB, i64)
    states, last = encode(tokens, table, *ws, *bs)
    assert states.shape == (2, 5, HID) and last.shape == (2, HID)
    feats = pooled(tokens, table, *ws, *bs)
    assert feats.shape == (2, 2 * HID) and feats.dtype == f32
    print("gru ok")
