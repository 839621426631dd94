# expect-error at line 69: shape-mismatch
# Planted bug: the future loop feeds lstm1 the second cell's hidden state (51 features) instead of the last prediction (1 feature); the call (line 69) is reported, as LSTMCell.forward works for the other calls. Only the call with future=3 runs that loop.
"""Sine-wave prediction with two stacked LSTM cells in double precision,
translated from pytorch/examples time_sequence_prediction/train.py in its
original class form (Sequence with lstm1, lstm2 and linear, forward with
its `future` loop, the MSE losses of the training closure and of the
prediction) and generate_sine_wave.py (the data).

Changed: nn.Module is fathom.Module; nn.LSTMCell and nn.Linear are small
classes with torch's weight layout, built in f64 by a `dtype` argument
(seq.double() converts a built module, which the DSL does not allow: an
instance is immutable once __init__ returns); input.split(1, dim=1) is
split into input.shape[1] parts; torch.cat is concat; the LBFGS step and
the plots are left out.  Sizes: hidden 51 as the original, sequences of
12 steps, 3 future steps.
"""
from fathom import *


class LSTMCell(Module):
    def __init__(self, input_size, hidden_size, dtype=f32):
        super(LSTMCell, self).__init__()
        k = hidden_size ** -0.5
        u = lambda *shape: cast(random_uniform(shape) * (2 * k) - k, dtype)
        self.weight_ih = u(4 * hidden_size, input_size)
        self.weight_hh = u(4 * hidden_size, hidden_size)
        self.bias_ih = u(4 * hidden_size)
        self.bias_hh = u(4 * hidden_size)

    def forward(self, x, state):
        h, c = state
        gates = linear(x, self.weight_ih, self.bias_ih) + linear(h, self.weight_hh, self.bias_hh)
        i, f, g, o = split(gates, 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        return sigmoid(o) * tanh(c), c


class Linear(Module):
    def __init__(self, in_features, out_features, dtype=f32):
        super(Linear, self).__init__()
        self.weight = cast(random_normal((out_features, in_features)) * 0.1, dtype)
        self.bias = zeros((out_features,), dtype=dtype)

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Sequence(Module):
    def __init__(self, dtype=f64):
        super(Sequence, self).__init__()
        self.lstm1 = LSTMCell(1, 51, dtype)
        self.lstm2 = LSTMCell(51, 51, dtype)
        self.linear = Linear(51, 1, dtype)
        self.dtype = dtype

    def forward(self, input, future=0):
        outputs = []
        h_t = zeros((input.shape[0], 51), dtype=self.dtype)
        c_t = zeros((input.shape[0], 51), dtype=self.dtype)
        h_t2 = zeros((input.shape[0], 51), dtype=self.dtype)
        c_t2 = zeros((input.shape[0], 51), dtype=self.dtype)

        for input_t in split(input, input.shape[1], axis=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(h_t2, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = concat(outputs, axis=1)
        return outputs


def mse_loss(a, b):
    return mean((a - b) ** 2)


def generate_sine_wave(N, L, T):
    x = reshape(arange(L), (1, L)) + cast(random_uniform((N, 1)) * (8 * T) - 4 * T, i64)
    return cast(sin(x / 1.0 / T), f64)


if __name__ == "__main__":
    data = generate_sine_wave(6, 13, 20)
    input = data[3:, :-1]
    target = data[3:, 1:]
    test_input = data[:3, :-1]
    test_target = data[:3, 1:]
    # build the model
    seq = Sequence()
    out = seq(input)
    loss = mse_loss(out, target)
    assert out.shape == (3, 12) and loss.dtype == f64
    # begin to predict, no need to track gradient here
    future = 3
    pred = seq(test_input, future=future)
    loss = mse_loss(pred[:, :-future], test_target)
    assert pred.shape == (3, 15)
    print("time sequence prediction (classes) ok", float(loss))
