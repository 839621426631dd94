# expect-error at line 18: shape-mismatch
# expect-error at line 28: index-out-of-range
# Planted bug: encode indexes the batch-major embeddings with xs[t] (batch row t) instead of xs[:, t] (time step t).
"""An Elman RNN language model unrolled over time with a while loop:
embedding lookup, a tanh recurrence, per-step logits, and the mean
next-token loss.  Batch B and sequence length T are symbolic.
"""
from __future__ import annotations

from fathom import *

VOCAB = 50
EMBED = 16
HIDDEN = 32


def step(x, h, wx, wh, b):
    return tanh(linear(x, wx, b) + h @ wh.T)


@jit
def encode(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (50, 16)],
           wx: Tensor[f32, (32, 16)], wh: Tensor[f32, (32, 32)], b: Tensor[f32, (32,)]):
    xs = embedding(table, tokens)                  # (B, T, EMBED)
    h = zeros((tokens.shape[0], HIDDEN))
    t = 0
    while t < tokens.shape[1]:
        h = step(xs[t], h, wx, wh, b)
        t += 1
    return h


@jit
def lm_loss(tokens: Tensor[i64, (B, T)], table: Tensor[f32, (50, 16)],
            wx: Tensor[f32, (32, 16)], wh: Tensor[f32, (32, 32)], b: Tensor[f32, (32,)],
            w_out: Tensor[f32, (50, 32)]):
    xs = embedding(table, tokens)
    h = zeros((tokens.shape[0], HIDDEN))
    total = zeros((tokens.shape[0],))
    t = 0
    steps = tokens.shape[1] - 1
    while t < steps:
        h = step(xs[:, t], h, wx, wh, b)
        logp = log_softmax(linear(h, w_out), axis=-1)
        target = one_hot(tokens[:, t + 1], VOCAB)
        total = total - reduce_sum(logp * target, axis=-1)
        t += 1
    return mean(total) / max(steps, 1)


@jit
def hidden_states(xs: Tensor[f32, (T, B, 16)], h0: Tensor[f32, (B, 32)],
                  wx: Tensor[f32, (32, 16)], wh: Tensor[f32, (32, 32)], b: Tensor[f32, (32,)]):
    h = h0
    states = []
    i = 0
    while i < xs.shape[0]:
        h = step(xs[i], h, wx, wh, b)
        states.append(h)
        i += 1
    return stack(states, axis=1), h


if __name__ == "__main__":
    bsz, seq = 3, 7
    tokens = cast(random_uniform((bsz, seq)) * VOCAB, i64)
    table = random_normal((VOCAB, EMBED)) * 0.1
    wx = random_normal((HIDDEN, EMBED)) * 0.2
    wh = random_normal((HIDDEN, HIDDEN)) * 0.1
    b = zeros((HIDDEN,))
    h = encode(tokens, table, wx, wh, b)
    assert h.shape == (bsz, HIDDEN) and h.dtype == f32
    loss = lm_loss(tokens, table, wx, wh, b, random_normal((VOCAB, HIDDEN)) * 0.1)
    assert loss.shape == () and loss.dtype == f32
    seq_states, last = hidden_states(embedding(table, tokens.T), zeros((bsz, HIDDEN)), wx, wh, b)
    assert seq_states.shape == (bsz, seq, HIDDEN) and last.shape == (bsz, HIDDEN)
    assert float(max(abs(seq_states[:, -1] - last))) == 0.0
    print("rnn ok: loss", float(loss))
