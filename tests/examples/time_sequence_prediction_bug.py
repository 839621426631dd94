# expect-error at line 41: dtype-mismatch
# Planted bug: the output layer's weight is left in f32 (one layer missed by seq.double()) while the LSTM state is f64: the head's linear (line 41) mixes dtypes.
"""Sine-wave prediction with two stacked LSTM cells in double precision,
translated from pytorch/examples time_sequence_prediction/train.py
(Sequence.forward with its `future` loop, the MSE losses of the training
closure and of the prediction) and generate_sine_wave.py (the data).

Changed: the module became a function over weight tuples; nn.LSTMCell is
written out with torch's weight layout; seq.double() is f64 weights;
input.split(1, dim=1) is split into input.shape[1] parts; the LBFGS step
and the plots are left out.  Sizes: hidden 51 as the original, sequences
of 12 steps, 3 future steps.
"""
from fathom import *


def lstm_cell_init(n_in, n_hidden):
    k = n_hidden ** -0.5
    u = lambda *shape: cast(random_uniform(shape) * (2 * k) - k, f64)
    return u(4 * n_hidden, n_in), u(4 * n_hidden, n_hidden), u(4 * n_hidden), u(4 * n_hidden)


def lstm_cell(x, state, w):
    h, c = state
    w_ih, w_hh, b_ih, b_hh = w
    i, f, g, o = split(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh), 4, axis=1)
    c = sigmoid(f) * c + sigmoid(i) * tanh(g)
    return sigmoid(o) * tanh(c), c


def sequence(params, input, future=0):
    lstm1, lstm2, lin = params
    outputs = []
    h_t = zeros((input.shape[0], 51), dtype=f64)
    c_t = zeros((input.shape[0], 51), dtype=f64)
    h_t2 = zeros((input.shape[0], 51), dtype=f64)
    c_t2 = zeros((input.shape[0], 51), dtype=f64)
    for input_t in split(input, input.shape[1], axis=1):
        h_t, c_t = lstm_cell(input_t, (h_t, c_t), lstm1)
        h_t2, c_t2 = lstm_cell(h_t, (h_t2, c_t2), lstm2)
        output = linear(h_t2, lin[0], lin[1])
        outputs += [output]
    for i in range(future):
        h_t, c_t = lstm_cell(output, (h_t, c_t), lstm1)
        h_t2, c_t2 = lstm_cell(h_t, (h_t2, c_t2), lstm2)
        output = linear(h_t2, lin[0], lin[1])
        outputs += [output]
    return concat(outputs, axis=1)


def mse_loss(a, b):
    return mean((a - b) ** 2)


def sine_data(N, L, T):
    x = reshape(arange(L), (1, L)) + cast(random_uniform((N, 1)) * (8 * T) - 4 * T, i64)
    return cast(sin(x / 1.0 / T), f64)


if __name__ == "__main__":
    data = sine_data(6, 13, 20)
    input = data[3:, :-1]
    target = data[3:, 1:]
    test_input = data[:3, :-1]
    test_target = data[:3, 1:]
    params = (lstm_cell_init(1, 51), lstm_cell_init(51, 51),
              (random_normal((1, 51)) * 0.1, zeros((1,), dtype=f64)))
    out = sequence(params, input)
    loss = mse_loss(out, target)
    assert out.shape == (3, 12) and loss.dtype == f64
    future = 3
    pred = sequence(params, test_input, future=future)
    assert pred.shape == (3, 15)
    loss = mse_loss(pred[:, :-future], test_target)
    print("time sequence prediction ok", float(loss))
