"""The word-level RNN language model and its evaluation loop, translated
from pytorch/examples word_language_model/model.py (RNNModel with rnn_type
LSTM / GRU / RNN_TANH / RNN_RELU, tie_weights, init_weights, forward,
init_hidden) and word_language_model/main.py (batchify, get_batch,
repackage_hidden, evaluate).

Changed: the module became functions over weight tuples; nn.LSTM, nn.GRU
and nn.RNN are written out as cells with torch's weight layout (w_ih,
w_hh, b_ih, b_hh; gates in torch's order) run over time and layers;
`.detach()` is the identity; narrow/view/t are slicing, reshape and
transpose.  The main block uses the script's defaults (LSTM, no tying) at
tiny sizes.
"""
import math

from fathom import *


def rnn_init(rnn_type, ninp, nhid, nlayers):
    gates = 4 if rnn_type == 'LSTM' else (3 if rnn_type == 'GRU' else 1)
    k = 1.0 / math.sqrt(nhid)
    layers = []
    for l in range(nlayers):
        n_in = ninp if l == 0 else nhid
        u = lambda *shape: random_uniform(shape) * (2 * k) - k
        layers.append((u(gates * nhid, n_in), u(gates * nhid, nhid), u(gates * nhid), u(gates * nhid)))
    return layers


def lstm_cell(x, h, c, w):
    w_ih, w_hh, b_ih, b_hh = w
    i, f, g, o = split(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh), 4, axis=1)
    c = sigmoid(f) * c + sigmoid(i) * tanh(g)
    return sigmoid(o) * tanh(c), c


def gru_cell(x, h, w):
    w_ih, w_hh, b_ih, b_hh = w
    i_r, i_z, i_n = split(linear(x, w_ih, b_ih), 3, axis=1)
    h_r, h_z, h_n = split(linear(h, w_hh, b_hh), 3, axis=1)
    r = sigmoid(i_r + h_r)
    z = sigmoid(i_z + h_z)
    n = tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def rnn_cell(x, h, w, nonlinearity):
    w_ih, w_hh, b_ih, b_hh = w
    pre = linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh)
    return tanh(pre) if nonlinearity == 'tanh' else relu(pre)


def run_rnn(rnn_type, layers, x, hidden, dropout_p):
    if rnn_type == 'LSTM':
        h0, c0 = hidden
    else:
        h0 = hidden
    h_n, c_n = [], []
    for l, w in enumerate(layers):
        h = h0[l]
        if rnn_type == 'LSTM':
            c = c0[l]
        outputs = []
        for t in range(x.shape[0]):
            if rnn_type == 'LSTM':
                h, c = lstm_cell(x[t], h, c, w)
            elif rnn_type == 'GRU':
                h = gru_cell(x[t], h, w)
            else:
                h = rnn_cell(x[t], h, w, 'tanh' if rnn_type == 'RNN_TANH' else 'relu')
            outputs.append(h)
        x = stack(outputs, 0)
        if l < len(layers) - 1:
            x = dropout(x, dropout_p)
        h_n.append(h)
        if rnn_type == 'LSTM':
            c_n.append(c)
    if rnn_type == 'LSTM':
        return x, (stack(h_n, 0), stack(c_n, 0))
    return x, stack(h_n, 0)


def init_model(rnn_type, ntoken, ninp, nhid, nlayers, tie_weights=False):
    initrange = 0.1
    encoder = random_uniform((ntoken, ninp)) * (2 * initrange) - initrange
    decoder_w = random_uniform((ntoken, nhid)) * (2 * initrange) - initrange
    if tie_weights:
        if nhid != ninp:
            raise ValueError('When using the tied flag, nhid must be equal to emsize')
        decoder_w = encoder
    return encoder, rnn_init(rnn_type, ninp, nhid, nlayers), (decoder_w, zeros((ntoken,)))


def forward(params, input, hidden, rnn_type, dropout_p):
    encoder, layers, decoder = params
    emb = dropout(embedding(encoder, input), dropout_p)
    output, hidden = run_rnn(rnn_type, layers, emb, hidden, dropout_p)
    output = dropout(output, dropout_p)
    decoded = linear(output, decoder[0], decoder[1])
    decoded = reshape(decoded, (-1, encoder.shape[0]))
    return log_softmax(decoded, axis=1), hidden


def init_hidden(rnn_type, nlayers, bsz, nhid):
    if rnn_type == 'LSTM':
        return (zeros((nlayers, bsz, nhid)), zeros((nlayers, bsz, nhid)))
    else:
        return zeros((nlayers, bsz, nhid))


def repackage_hidden(h):
    if isinstance(h, Tensor):
        return h
    else:
        return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.shape[0] // bsz
    data = data[0:nbatch * bsz]
    return transpose(reshape(data, (bsz, -1)))


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = reshape(source[i + 1:i + 1 + seq_len], (-1,))
    return data, target


def evaluate(params, data_source, rnn_type, nlayers, nhid, bptt, eval_batch_size):
    total_loss = 0.0
    hidden = init_hidden(rnn_type, nlayers, eval_batch_size, nhid)
    for i in range(0, data_source.shape[0] - 1, bptt):
        data, targets = get_batch(data_source, i, bptt)
        output, hidden = forward(params, data, hidden, rnn_type, 0.0)
        hidden = repackage_hidden(hidden)
        nll = -mean(reduce_sum(output * one_hot(targets, output.shape[1]), axis=1))
        total_loss += len(data) * float(nll)
    return total_loss / (len(data_source) - 1)


if __name__ == "__main__":
    ntokens, emsize, nhid, nlayers, bptt, eval_batch_size = 20, 8, 8, 2, 4, 4
    rnn_type, tied = 'LSTM', False
    params = init_model(rnn_type, ntokens, emsize, nhid, nlayers, tied)
    corpus = cast(random_uniform((41,)) * ntokens, i64)
    data = batchify(corpus, eval_batch_size)
    assert data.shape == (10, eval_batch_size)
    loss = evaluate(params, data, rnn_type, nlayers, nhid, bptt, eval_batch_size)
    print("word language model ok", loss)
