"""The torch.nn modules RNNModel builds on: Embedding, Linear, Dropout,
and the recurrent layers LSTM, GRU and RNN with torch's weight layout."""
import math

from fathom import *


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, initrange=0.1):
        super(Embedding, self).__init__()
        self.weight = random_uniform((num_embeddings, embedding_dim)) * (2 * initrange) - initrange

    def forward(self, input):
        return embedding(self.weight, input)


class Linear(Module):
    def __init__(self, in_features, out_features, weight=None, initrange=0.1):
        super(Linear, self).__init__()
        if weight is None:
            weight = random_uniform((out_features, in_features)) * (2 * initrange) - initrange
        self.weight = weight
        self.bias = zeros((out_features,))

    def forward(self, input):
        return linear(input, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p=0.5):
        super(Dropout, self).__init__()
        self.p = p

    def forward(self, input):
        return dropout(input, self.p)


def rnn_weights(gates, input_size, hidden_size, num_layers):
    """torch's per-layer weights: w_ih (gates*H, in), w_hh (gates*H, H), b_ih, b_hh."""
    k = 1.0 / math.sqrt(hidden_size)
    u = lambda *shape: random_uniform(shape) * (2 * k) - k
    layers = []
    for layer in range(num_layers):
        n_in = input_size if layer == 0 else hidden_size
        layers.append((u(gates * hidden_size, n_in), u(gates * hidden_size, hidden_size),
                       u(gates * hidden_size), u(gates * hidden_size)))
    return layers


class LSTM(Module):
    def __init__(self, input_size, hidden_size, num_layers=1, dropout=0.0):
        super(LSTM, self).__init__()
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.layers = rnn_weights(4, input_size, hidden_size, num_layers)

    def cell(self, x, h, c, w):
        w_ih, w_hh, b_ih, b_hh = w
        i, f, g, o = split(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh), 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        return sigmoid(o) * tanh(c), c

    def forward(self, input, hx):
        h0, c0 = hx
        h_n, c_n = [], []
        x = input
        for layer, w in enumerate(self.layers):
            h, c = h0[layer], c0[layer]
            outputs = []
            for t in range(x.shape[0]):
                h, c = self.cell(x[t], h, c, w)
                outputs.append(h)
            x = stack(outputs, 0)
            if layer < len(self.layers) - 1:
                x = dropout(x, self.dropout)
            h_n.append(h)
            c_n.append(c)
        return x, (stack(h_n, 0), stack(c_n, 0))


class GRU(Module):
    def __init__(self, input_size, hidden_size, num_layers=1, dropout=0.0):
        super(GRU, self).__init__()
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.layers = rnn_weights(3, input_size, hidden_size, num_layers)

    def cell(self, x, h, w):
        w_ih, w_hh, b_ih, b_hh = w
        i_r, i_z, i_n = split(linear(x, w_ih, b_ih), 3, axis=1)
        h_r, h_z, h_n = split(linear(h, w_hh, b_hh), 3, axis=1)
        r = sigmoid(i_r + h_r)
        z = sigmoid(i_z + h_z)
        n = tanh(i_n + r * h_n)
        return (1 - z) * n + z * h

    def forward(self, input, hx):
        h_n = []
        x = input
        for layer, w in enumerate(self.layers):
            h = hx[layer]
            outputs = []
            for t in range(x.shape[0]):
                h = self.cell(x[t], h, w)
                outputs.append(h)
            x = stack(outputs, 0)
            if layer < len(self.layers) - 1:
                x = dropout(x, self.dropout)
            h_n.append(h)
        return x, stack(h_n, 0)


class RNN(Module):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity='tanh', dropout=0.0):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.nonlinearity = nonlinearity
        self.dropout = dropout
        self.layers = rnn_weights(1, input_size, hidden_size, num_layers)

    def forward(self, input, hx):
        h_n = []
        x = input
        for layer, w in enumerate(self.layers):
            w_ih, w_hh, b_ih, b_hh = w
            h = hx[layer]
            outputs = []
            for t in range(x.shape[0]):
                pre = linear(x[t], w_ih, b_ih) + linear(h, w_hh, b_hh)
                h = tanh(pre) if self.nonlinearity == 'tanh' else relu(pre)
                outputs.append(h)
            x = stack(outputs, 0)
            if layer < len(self.layers) - 1:
                x = dropout(x, self.dropout)
            h_n.append(h)
        return x, stack(h_n, 0)
