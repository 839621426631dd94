"""A GRU language model from scratch trained with gradient clipping,
translated from d2l-ai/d2l-en chapter_recurrent-modern/gru.md (GRUScratch:
the `triple` initialiser, forward with `H=None`) and
chapter_recurrent-neural-networks/rnn-scratch.md (RNNLMScratch.one_hot,
output_layer, forward; Trainer.clip_gradients).

Changed: classes became functions over a weight tuple; the gradients come
from value_and_grad instead of loss.backward() and clip_gradients returns
the clipped gradients instead of writing param.grad in place; the loss is
d2l's Classifier.loss written with log_softmax; SGD is a tuple update.
Sizes are tiny so the file runs fast.
"""
from __future__ import annotations

from fathom import *


def gru_init(num_inputs, num_hiddens, sigma=0.01):
    init_weight = lambda *shape: random_normal(shape) * sigma
    triple = lambda: (init_weight(num_inputs, num_hiddens),
                      init_weight(num_hiddens, num_hiddens),
                      zeros((num_hiddens,)))
    return triple() + triple() + triple()


def gru_forward(p, inputs, num_hiddens, H=None):
    W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h = p
    if H is None:
        H = zeros((inputs.shape[1], num_hiddens))
    outputs = []
    for X in inputs:
        Z = sigmoid(matmul(X, W_xz) + matmul(H, W_hz) + b_z)
        R = sigmoid(matmul(X, W_xr) + matmul(H, W_hr) + b_r)
        H_tilde = tanh(matmul(X, W_xh) + matmul(R * H, W_hh) + b_h)
        H = Z * H + (1 - Z) * H_tilde
        outputs.append(H)
    return outputs, H


def rnnlm_loss(params, X, Y, vocab_size, num_hiddens):
    rnn = params[:9]
    W_hq, b_q = params[9], params[10]
    embs = one_hot(X.T, vocab_size)
    rnn_outputs, _ = gru_forward(rnn, embs, num_hiddens)
    Y_hat = stack([matmul(H, W_hq) + b_q for H in rnn_outputs], 1)
    Y_hat = reshape(Y_hat, (-1, Y_hat.shape[-1]))
    logp = log_softmax(Y_hat, axis=-1)
    return -mean(reduce_sum(logp * one_hot(reshape(Y, (-1,)), vocab_size), axis=1))


def clip_gradients(grad_clip_val, grads):
    norm = sqrt(sum([reduce_sum(g ** 2) for g in grads]))
    if norm > grad_clip_val:
        grads = tuple(g * (grad_clip_val / norm) for g in grads)
    return grads


def train_step(params, X, Y, vocab_size, num_hiddens, lr, grad_clip_val):
    l, grads = value_and_grad(rnnlm_loss)(params, X, Y, vocab_size, num_hiddens)
    grads = clip_gradients(grad_clip_val, grads)
    return l, tuple(p - lr * g for p, g in zip(params, grads))



def train(W_xz: Tensor[f32, (6, 4)], W_hz: Tensor[f32, (4, 4)], b_z: Tensor[f32, (4,)],
          W_xr: Tensor[f32, (6, 4)], W_hr: Tensor[f32, (4, 4)], b_r: Tensor[f32, (4,)],
          W_xh: Tensor[f32, (6, 4)], W_hh: Tensor[f32, (4, 4)], b_h: Tensor[f32, (4,)],
          W_hq: Tensor[f32, (4, 6)], b_q: Tensor[f32, (6,)],
          X: Tensor[i64, (B, T)], Y: Tensor[i64, (B, T)]):
    """One clipped training step on B sequences of T tokens (a vocabulary
    of 6 and 4 hidden units, as in the main block).  T is only known when
    it runs, so gru_forward's loop and its list of outputs are too."""
    params = (W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q)
    return train_step(params, X, Y, 6, 4, 4.0, 1.0)


if __name__ == "__main__":
    vocab_size, num_hiddens, batch_size, num_steps = 6, 4, 2, 3
    params = gru_init(vocab_size, num_hiddens) + (
        random_normal((num_hiddens, vocab_size)) * 0.01, zeros((vocab_size,)))
    X = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    Y = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    l, new_params = train_step(params, X, Y, vocab_size, num_hiddens, 4.0, 1.0)
    assert l.shape == ()
    assert len(new_params) == 11 and new_params[9].shape == (num_hiddens, vocab_size)
    print("d2l gru ok", float(l))
