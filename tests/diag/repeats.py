# One mistake, one diagnostic: a wrong value that fails the same way at
# several uses is reported once, "(and N more uses)", with a note at each
# other use.  Different failures stay separate.
from __future__ import annotations
from fathom import *


def lstm_cell(x: Tensor[f32, (B, 32)], h: Tensor[f32, (B, 64)], c: Tensor[f32, (B, 64)],
              Wi: Tensor[f32, (64, 64)], Wf: Tensor[f32, (64, 64)],
              Wo: Tensor[f32, (64, 64)], Wg: Tensor[f32, (64, 64)]):
    i = sigmoid(x @ Wi + h)
    f = sigmoid(x @ Wf + h)
    o = sigmoid(x @ Wo + h)
    g = tanh(x @ Wg + h)
    c2 = f * c + i * g
    return o * tanh(c2), c2


def halves(x: Tensor[f32, (B, 64)], w: Tensor[f32, (64, 10)]):
    a, b = split(x, 2, 1)
    return a @ w, b @ w


def distinct(x: Tensor[f32, (B, 32)], w1: Tensor[f32, (64, 8)], w2: Tensor[f32, (16, 8)]):
    return x @ w1, x @ w2


def bad_state(x: Tensor[f32, (B, 32)], h: Tensor[f32, (T, 64)],
              Wxi: Tensor[f32, (32, 64)], Whi: Tensor[f32, (64, 64)],
              Wxf: Tensor[f32, (32, 64)], Whf: Tensor[f32, (64, 64)]):
    # the state h has the wrong batch: both gates fail through h @ W, one mistake
    i = sigmoid(x @ Wxi + h @ Whi)
    f = sigmoid(x @ Wxf + h @ Whf)
    return i * f
