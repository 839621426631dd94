# expect-error at line 46: shape-mismatch
# Planted bug: the initial hidden state takes inputs.shape[0] (num_steps, 5) for the batch size (3): H @ W_hi is (5, 8) against X @ W_xi's (3, 8) in the input gate.
"""An LSTM language model from scratch with greedy prediction, translated
from d2l-ai/d2l-en in its original class form:
chapter_recurrent-modern/lstm.md (LSTMScratch: the `triple` initialiser
unpacked into twelve attributes, forward with `H_C=None`) and
chapter_recurrent-neural-networks/rnn-scratch.md (RNNLMScratch: init_params
called from __init__, one_hot, output_layer, forward, predict with its
warm-up period).

Changed: d2l.Module / d2l.Classifier are fathom.Module;
save_hyperparameters() is written out as attribute assignments;
nn.Parameter is dropped; the vocabulary is token ids (no dict), so predict
returns the list of ids; d2l.tensor([[i]]) is full((1, 1), i, i64); the
loss is d2l's Classifier.loss written with log_softmax.  Sizes are tiny so
the file runs fast.
"""
from fathom import *


class LSTMScratch(Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs = num_inputs
        self.num_hiddens = num_hiddens
        self.sigma = sigma

        init_weight = lambda *shape: random_normal(shape) * sigma
        triple = lambda: (init_weight(num_inputs, num_hiddens),
                          init_weight(num_hiddens, num_hiddens),
                          zeros((num_hiddens,)))
        self.W_xi, self.W_hi, self.b_i = triple()  # Input gate
        self.W_xf, self.W_hf, self.b_f = triple()  # Forget gate
        self.W_xo, self.W_ho, self.b_o = triple()  # Output gate
        self.W_xc, self.W_hc, self.b_c = triple()  # Input node

    def forward(self, inputs, H_C=None):
        if H_C is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = zeros((inputs.shape[0], self.num_hiddens))
            C = zeros((inputs.shape[1], self.num_hiddens))
        else:
            H, C = H_C
        outputs = []
        for X in inputs:
            I = sigmoid(matmul(X, self.W_xi) + matmul(H, self.W_hi) + self.b_i)
            F = sigmoid(matmul(X, self.W_xf) + matmul(H, self.W_hf) + self.b_f)
            O = sigmoid(matmul(X, self.W_xo) + matmul(H, self.W_ho) + self.b_o)
            C_tilde = tanh(matmul(X, self.W_xc) + matmul(H, self.W_hc) + self.b_c)
            C = F * C + I * C_tilde
            H = O * tanh(C)
            outputs.append(H)
        return outputs, (H, C)


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

    def loss(self, Y_hat, Y):
        logp = log_softmax(reshape(Y_hat, (-1, Y_hat.shape[-1])), axis=-1)
        return -mean(reduce_sum(one_hot(reshape(Y, (-1,)), self.vocab_size) * logp, axis=1))

    def predict(self, prefix, num_preds):
        state, outputs = None, [prefix[0]]
        for i in range(len(prefix) + num_preds - 1):
            X = full((1, 1), outputs[-1], i64)
            embs = self.one_hot(X)
            rnn_outputs, state = self.rnn(embs, state)
            if i < len(prefix) - 1:  # Warm-up period
                outputs.append(prefix[i + 1])
            else:  # Predict num_preds steps
                Y = self.output_layer(rnn_outputs)
                outputs.append(int(reshape(argmax(Y, axis=2), 1)))
        return outputs


if __name__ == "__main__":
    vocab_size, num_hiddens, batch_size, num_steps = 12, 8, 3, 5
    lstm = LSTMScratch(num_inputs=vocab_size, num_hiddens=num_hiddens)
    model = RNNLMScratch(lstm, vocab_size=vocab_size, lr=4)
    X = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    Y = cast(random_uniform((batch_size, num_steps)) * vocab_size, i64)
    Y_hat = model(X)
    assert Y_hat.shape == (batch_size, num_steps, vocab_size)
    l = model.loss(Y_hat, Y)
    assert l.shape == ()
    out = model.predict((3, 1, 4), 4)
    assert len(out) == 7
    print("d2l lstm (classes) ok", float(l), out)
