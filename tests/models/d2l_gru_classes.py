"""GRU language models from scratch and concise, translated from d2l-ai/d2l-en
in their original class form: chapter_recurrent-modern/gru.md (GRUScratch
with its `triple` initialiser and forward with `H=None`; the concise GRU
over d2l.RNN), chapter_recurrent-neural-networks/rnn-scratch.md
(RNNLMScratch: init_params called from __init__, one_hot, output_layer,
forward) and rnn-concise.md (RNNLM, a subclass of RNNLMScratch that
overrides init_params and output_layer, so the base __init__ builds the
subclass's head).

Changed: d2l.Module / d2l.Classifier are fathom.Module;
save_hyperparameters() is written out; nn.Parameter is dropped; nn.GRU is
the GRU class below (one layer, torch's gate order, outputs stacked and
the state with a layer axis); nn.LazyLinear takes its input size.  Sizes
are tiny so the file runs fast.
"""
from fathom import *


class GRUScratch(Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs = num_inputs
        self.num_hiddens = num_hiddens
        self.sigma = sigma

        init_weight = lambda *shape: random_normal(shape) * sigma
        triple = lambda: (init_weight(num_inputs, num_hiddens),
                          init_weight(num_hiddens, num_hiddens),
                          zeros((num_hiddens,)))
        self.W_xz, self.W_hz, self.b_z = triple()  # Update gate
        self.W_xr, self.W_hr, self.b_r = triple()  # Reset gate
        self.W_xh, self.W_hh, self.b_h = triple()  # Candidate hidden state

    def forward(self, inputs, H=None):
        if H is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = zeros((inputs.shape[1], self.num_hiddens))
        outputs = []
        for X in inputs:
            Z = sigmoid(matmul(X, self.W_xz) + matmul(H, self.W_hz) + self.b_z)
            R = sigmoid(matmul(X, self.W_xr) + matmul(H, self.W_hr) + self.b_r)
            H_tilde = tanh(matmul(X, self.W_xh) + matmul(R * H, self.W_hh) + self.b_h)
            H = Z * H + (1 - Z) * H_tilde
            outputs.append(H)
        return outputs, H


class GRU(Module):
    """The concise GRU: nn.GRU(num_inputs, num_hiddens) behind d2l.RNN."""

    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs = num_inputs
        self.num_hiddens = num_hiddens
        self.sigma = sigma
        self.w_ih = random_normal((3 * num_hiddens, num_inputs)) * sigma
        self.w_hh = random_normal((3 * num_hiddens, num_hiddens)) * sigma
        self.b_ih = zeros((3 * num_hiddens,))
        self.b_hh = zeros((3 * num_hiddens,))

    def forward(self, inputs, H=None):
        h = zeros((inputs.shape[1], self.num_hiddens)) if H is None else H[0]
        outputs = []
        for X in inputs:
            i_r, i_z, i_n = split(linear(X, self.w_ih, self.b_ih), 3, axis=1)
            h_r, h_z, h_n = split(linear(h, self.w_hh, self.b_hh), 3, axis=1)
            r = sigmoid(i_r + h_r)
            z = sigmoid(i_z + h_z)
            n = tanh(i_n + r * h_n)
            h = (1 - z) * n + z * h
            outputs.append(h)
        return stack(outputs, 0), expand_dims(h, 0)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class RNNLMScratch(Module):
    """The RNN-based language model implemented from scratch."""

    def __init__(self, rnn, vocab_size, lr=0.01):
        super().__init__()
        self.rnn = rnn
        self.vocab_size = vocab_size
        self.lr = lr
        self.init_params()

    def init_params(self):
        self.W_hq = random_normal((self.rnn.num_hiddens, self.vocab_size)) * self.rnn.sigma
        self.b_q = zeros((self.vocab_size,))

    def one_hot(self, X):
        # Output shape: (num_steps, batch_size, vocab_size)
        return one_hot(X.T, self.vocab_size)

    def output_layer(self, rnn_outputs):
        outputs = [matmul(H, self.W_hq) + self.b_q for H in rnn_outputs]
        return stack(outputs, 1)

    def forward(self, X, state=None):
        embs = self.one_hot(X)
        rnn_outputs, _ = self.rnn(embs, state)
        return self.output_layer(rnn_outputs)


class RNNLM(RNNLMScratch):
    """The RNN-based language model implemented with high-level APIs."""

    def init_params(self):
        self.linear = Linear(self.rnn.num_hiddens, self.vocab_size)

    def output_layer(self, hiddens):
        return swapaxes(self.linear(hiddens), 0, 1)


if __name__ == "__main__":
    vocab_size, num_hiddens, batch_size, num_steps = 12, 8, 3, 5
    X = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    gru = GRUScratch(num_inputs=vocab_size, num_hiddens=num_hiddens)
    model = RNNLMScratch(gru, vocab_size=vocab_size, lr=4)
    assert model(X).shape == (batch_size, num_steps, vocab_size)
    gru = GRU(num_inputs=vocab_size, num_hiddens=num_hiddens)
    model = RNNLM(gru, vocab_size=vocab_size, lr=4)
    assert model(X).shape == (batch_size, num_steps, vocab_size)
    print("d2l gru (classes) ok")
