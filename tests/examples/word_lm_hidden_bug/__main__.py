"""Evaluate an untrained RNNModel on a random corpus (main.py's evaluate)."""
from fathom import *

from .data import batchify, get_batch
from .model import RNNModel


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""

    if isinstance(h, Tensor):
        return h
    else:
        return tuple(repackage_hidden(v) for v in h)


def nll_loss(output, targets):
    return -mean(reduce_sum(output * one_hot(targets, output.shape[1]), axis=1))


def evaluate(model, data_source, bptt, eval_batch_size):
    # Turn on evaluation mode which disables dropout.
    total_loss = 0.
    hidden = model.init_hidden(eval_batch_size)
    for i in range(0, data_source.shape[0] - 1, bptt):
        data, targets = get_batch(data_source, i, bptt)
        output, hidden = model(data, hidden)
        hidden = repackage_hidden(hidden)
        total_loss += len(data) * float(nll_loss(output, targets))
    return total_loss / (len(data_source) - 1)


if __name__ == "__main__":
    ntokens, emsize, nhid, nlayers, bptt, eval_batch_size = 20, 8, 8, 2, 4, 4
    model = RNNModel('LSTM', ntokens, emsize, nhid, nlayers, 0.0, False)
    corpus = cast(random_uniform((41,)) * ntokens, i64)
    val_data = batchify(corpus, eval_batch_size)
    assert val_data.shape == (10, eval_batch_size)
    val_loss = evaluate(model, val_data, bptt, eval_batch_size)
    print("word language model (package) ok", val_loss)
