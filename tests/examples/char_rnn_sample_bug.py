# expect-error at line 14: shape-mismatch
# Planted bug: the recurrence uses the output projection w_hy (HID, VOCAB) instead of w_hh.
"""Greedy sampling from a character RNN: the argmax of each step's logits
is fed back as the next input (one_hot), tokens collected and stacked."""
from __future__ import annotations

from fathom import *

VOCAB = 27
HID = 20


def rnn_step(x_onehot, h, w_xh, w_hh, b_h, w_hy, b_y):
    h = tanh(x_onehot @ w_xh + h @ w_hy + b_h)
    return h, h @ w_hy + b_y


@jit
def sample(seed: Tensor[i64, (B,)], w_xh: Tensor[f32, (27, 20)], w_hh: Tensor[f32, (20, 20)],
           b_h: Tensor[f32, (20,)], w_hy: Tensor[f32, (20, 27)], b_y: Tensor[f32, (27,)], length: int):
    h = zeros((seed.shape[0], HID))
    tok = seed
    out = [seed]
    for _ in range(length):
        h, logits = rnn_step(one_hot(tok, VOCAB), h, w_xh, w_hh, b_h, w_hy, b_y)
        tok = argmax(logits, axis=-1)
        out.append(tok)
    return stack(out, axis=1)


@jit
def sequence_logprob(tokens: Tensor[i64, (B, T)], w_xh: Tensor[f32, (27, 20)], w_hh: Tensor[f32, (20, 20)],
                     b_h: Tensor[f32, (20,)], w_hy: Tensor[f32, (20, 27)], b_y: Tensor[f32, (27,)]):
    h = zeros((tokens.shape[0], HID))
    total = zeros((tokens.shape[0],))
    for t in range(tokens.shape[1] - 1):
        h, logits = rnn_step(one_hot(tokens[:, t], VOCAB), h, w_xh, w_hh, b_h, w_hy, b_y)
        total = total + reduce_sum(log_softmax(logits) * one_hot(tokens[:, t + 1], VOCAB), axis=-1)
    return total


if __name__ == "__main__":
    r = lambda *s: random_normal(s) * 0.1
    ws = (r(VOCAB, HID), r(HID, HID), zeros((HID,)), r(HID, VOCAB), zeros((VOCAB,)))
    toks = sample(arange(2), *ws, 5)
    assert toks.shape == (2, 6) and toks.dtype == i64
    lp = sequence_logprob(toks, *ws)
    assert lp.shape == (2,) and lp.dtype == f32
    print("char rnn ok")
