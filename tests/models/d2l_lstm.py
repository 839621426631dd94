"""An LSTM language model from scratch with greedy prediction, translated
from d2l-ai/d2l-en chapter_recurrent-modern/lstm.md (LSTMScratch: the
`triple` initialiser and forward with `H_C=None`) and
chapter_recurrent-neural-networks/rnn-scratch.md (RNNLMScratch: one_hot,
output_layer, forward, predict with its warm-up period).

Changed: classes became functions over a weight tuple; the vocabulary is
token ids (no dict), so predict returns the list of ids; d2l.tensor([[i]])
is full((1, 1), i, i64); the loss is d2l's Classifier.loss written with
log_softmax.  Sizes are tiny so the file runs fast.
"""
from fathom import *


def lstm_init(num_inputs, num_hiddens, sigma=0.01):
    init_weight = lambda *shape: random_normal(shape) * sigma
    triple = lambda: (init_weight(num_inputs, num_hiddens),
                      init_weight(num_hiddens, num_hiddens),
                      zeros((num_hiddens,)))
    return triple() + triple() + triple() + triple()


def lstm_forward(p, num_hiddens, inputs, H_C=None):
    W_xi, W_hi, b_i, W_xf, W_hf, b_f, W_xo, W_ho, b_o, W_xc, W_hc, b_c = p
    if H_C is None:
        H = zeros((inputs.shape[1], num_hiddens))
        C = zeros((inputs.shape[1], num_hiddens))
    else:
        H, C = H_C
    outputs = []
    for X in inputs:
        I = sigmoid(matmul(X, W_xi) + matmul(H, W_hi) + b_i)
        F = sigmoid(matmul(X, W_xf) + matmul(H, W_hf) + b_f)
        O = sigmoid(matmul(X, W_xo) + matmul(H, W_ho) + b_o)
        C_tilde = tanh(matmul(X, W_xc) + matmul(H, W_hc) + b_c)
        C = F * C + I * C_tilde
        H = O * tanh(C)
        outputs.append(H)
    return outputs, (H, C)


def output_layer(rnn_outputs, W_hq, b_q):
    outputs = [matmul(H, W_hq) + b_q for H in rnn_outputs]
    return stack(outputs, 1)


def rnnlm_forward(params, X, vocab_size, num_hiddens, state=None):
    rnn, W_hq, b_q = params
    embs = one_hot(X.T, vocab_size)
    rnn_outputs, _ = lstm_forward(rnn, num_hiddens, embs, state)
    return output_layer(rnn_outputs, W_hq, b_q)


def loss(Y_hat, Y):
    Y_hat = reshape(Y_hat, (-1, Y_hat.shape[-1]))
    picked = reduce_sum(log_softmax(Y_hat, axis=-1) * one_hot(reshape(Y, (-1,)), Y_hat.shape[-1]), axis=1)
    return -mean(picked)


def predict(params, prefix, num_preds, vocab_size, num_hiddens):
    rnn, W_hq, b_q = params
    state, outputs = None, [prefix[0]]
    for i in range(len(prefix) + num_preds - 1):
        X = full((1, 1), outputs[-1], i64)
        embs = one_hot(X.T, vocab_size)
        rnn_outputs, state = lstm_forward(rnn, num_hiddens, embs, state)
        if i < len(prefix) - 1:
            outputs.append(prefix[i + 1])
        else:
            Y = output_layer(rnn_outputs, W_hq, b_q)
            outputs.append(int(reshape(argmax(Y, axis=2), 1)))
    return outputs


if __name__ == "__main__":
    vocab_size, num_hiddens, batch_size, num_steps = 12, 8, 3, 5
    params = (lstm_init(vocab_size, num_hiddens),
              random_normal((num_hiddens, vocab_size)) * 0.01, zeros((vocab_size,)))
    X = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    Y = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    Y_hat = rnnlm_forward(params, X, vocab_size, num_hiddens)
    assert Y_hat.shape == (batch_size, num_steps, vocab_size)
    l = loss(Y_hat, Y)
    assert l.shape == ()
    out = predict(params, (3, 1, 4), 4, vocab_size, num_hiddens)
    assert len(out) == 7
    print("d2l lstm ok", float(l), out)
