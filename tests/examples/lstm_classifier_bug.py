# expect-error at line 17: shape-mismatch
# Planted bug: the recurrent weight w_hh (4*HID, HID) is used without its transpose.
"""An LSTM sequence classifier: fused gate projection split into four
gates, a for loop over time on the first axis of a time-major input, and a
cross-entropy loss differentiated with value_and_grad."""
from __future__ import annotations

from fathom import *

IN = 12
HID = 16
CLASSES = 5


def lstm_cell(x, state, w_ih, w_hh, b):
    h, c = state
    gates = x @ w_ih.T + h @ w_hh + b            # (B, 4*HID)
    i, f, g, o = split(gates, 4, axis=1)
    i = sigmoid(i)
    f = sigmoid(f)
    g = tanh(g)
    o = sigmoid(o)
    c = f * c + i * g
    h = o * tanh(c)
    return h, c


def run_lstm(xs, w_ih, w_hh, b):
    batch = xs.shape[1]
    state = (zeros((batch, HID)), zeros((batch, HID)))
    for x in xs:
        state = lstm_cell(x, state, w_ih, w_hh, b)
    return state[0]


def loss_fn(params, xs, labels):
    w_ih, w_hh, b, w_out, b_out = params
    h = run_lstm(xs, w_ih, w_hh, b)
    logits = linear(h, w_out, b_out)
    logp = log_softmax(logits, axis=-1)
    return -mean(reduce_sum(logp * one_hot(labels, CLASSES), axis=1))


@jit
def train_step(w_ih: Tensor[f32, (64, 12)], w_hh: Tensor[f32, (64, 16)], b: Tensor[f32, (64,)],
               w_out: Tensor[f32, (5, 16)], b_out: Tensor[f32, (5,)],
               xs: Tensor[f32, (T, B, 12)], labels: Tensor[i64, (B,)]):
    params = (w_ih, w_hh, b, w_out, b_out)
    loss, grads = value_and_grad(loss_fn)(params, xs, labels)
    new_params = tuple(p - 0.1 * g for p, g in zip(params, grads))
    return loss, new_params


@jit
def predict(w_ih: Tensor[f32, (64, 12)], w_hh: Tensor[f32, (64, 16)], b: Tensor[f32, (64,)],
            w_out: Tensor[f32, (5, 16)], b_out: Tensor[f32, (5,)], xs: Tensor[f32, (T, B, 12)]):
    h = run_lstm(xs, w_ih, w_hh, b)
    return argmax(linear(h, w_out, b_out), axis=-1)


if __name__ == "__main__":
    params = (random_normal((4 * HID, IN)) * 0.1, random_normal((4 * HID, HID)) * 0.1,
              zeros((4 * HID,)), random_normal((CLASSES, HID)) * 0.1, zeros((CLASSES,)))
    xs = random_normal((6, 3, IN))
    labels = arange(3) % CLASSES
    loss, new_params = train_step(*params, xs, labels)
    assert loss.shape == () and loss.dtype == f32
    for p, q in zip(params, new_params):
        assert p.shape == q.shape and q.dtype == f32
    pred = predict(*new_params, xs)
    assert pred.shape == (3,) and pred.dtype == i64
    print("lstm ok", float(loss))
