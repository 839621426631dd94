# An Elman RNN over a sequence: a for loop over a tensor's first axis with a
# list of outputs, and the same recurrence as a while loop over indices.
from __future__ import annotations

from fathom import *


def cell(x, h, wx, wh, b):
    return tanh(linear(x, wx, b) + h @ wh.T)


@jit
def rnn(xs: Tensor[f32, (T, B, D)], h0: Tensor[f32, (B, H)], wx: Tensor[f32, (H, D)],
        wh: Tensor[f32, (H, H)], b: Tensor[f32, (H,)]):
    h = h0
    outs = []
    for x in xs:
        h = cell(x, h, wx, wh, b)
        outs.append(h)
    return stack(outs, axis=0), h


@jit
def rnn_while(xs: Tensor[f32, (T, B, D)], h0: Tensor[f32, (B, H)], wx: Tensor[f32, (H, D)],
              wh: Tensor[f32, (H, H)], b: Tensor[f32, (H,)]):
    h = h0
    total = zeros_like(h0)
    i = 0
    while i < xs.shape[0]:
        h = cell(xs[i], h, wx, wh, b)
        total += h
        i += 1
    return total / xs.shape[0]


if __name__ == "__main__":
    xs = random_normal((6, 2, 3))
    args = (xs, zeros((2, 4)), random_normal((4, 3)), random_normal((4, 4)) * 0.3, zeros((4,)))
    seq, last = rnn(*args)
    assert seq.shape == (6, 2, 4) and last.shape == (2, 4) and seq.dtype == f32
    avg = rnn_while(*args)
    assert avg.shape == (2, 4) and avg.dtype == f32
    assert float(max(abs(avg - mean(seq, axis=0)))) < 1e-5
    print("rnn ok")
