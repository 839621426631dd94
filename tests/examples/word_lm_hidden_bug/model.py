"""Planted bug: init_hidden's GRU/RNN branch passes the sizes as separate
arguments, as torch's new_zeros takes them; the DSL's zeros takes a shape
tuple (then a dtype).  __main__ builds an LSTM model, so only the branch
that rnn_type prunes is wrong.

RNNModel: word_language_model/model.py's container module."""
from fathom import *

from .layers import GRU, LSTM, RNN, Dropout, Embedding, Linear


class RNNModel(Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = Dropout(dropout)
        self.encoder = Embedding(ntoken, ninp)
        if rnn_type in ('LSTM', 'GRU'):
            self.rnn = LSTM(ninp, nhid, nlayers, dropout=dropout) if rnn_type == 'LSTM' else GRU(ninp, nhid, nlayers, dropout=dropout)
        else:
            if rnn_type not in ('RNN_TANH', 'RNN_RELU'):
                raise ValueError("""An invalid option for `--model` was supplied,
                                 options are ['LSTM', 'GRU', 'RNN_TANH' or 'RNN_RELU']""")
            nonlinearity = 'tanh' if rnn_type == 'RNN_TANH' else 'relu'
            self.rnn = RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)

        # Optionally tie weights as in:
        # "Using the Output Embedding to Improve Language Models" (Press & Wolf 2016)
        # https://arxiv.org/abs/1608.05859
        # and
        # "Tying Word Vectors and Word Classifiers: A Loss Framework for Language Modeling" (Inan et al. 2016)
        # https://arxiv.org/abs/1611.01462
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder = Linear(nhid, ntoken, weight=self.encoder.weight)
        else:
            self.decoder = Linear(nhid, ntoken)

        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return log_softmax(decoded, axis=1), hidden

    def init_hidden(self, bsz):
        if self.rnn_type == 'LSTM':
            return (zeros((self.nlayers, bsz, self.nhid)),
                    zeros((self.nlayers, bsz, self.nhid)))
        else:
            return zeros(self.nlayers, bsz, self.nhid)  # expect-error: arity
