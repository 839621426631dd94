"""Masked softmax, scaled dot-product attention and additive attention in
their original class form, translated from d2l-ai/d2l-en
chapter_attention-mechanisms-and-transformers/attention-scoring-functions.md
(PyTorch tab: masked_softmax with its nested _sequence_mask and the
valid_lens None / 1-D / 2-D cases, DotProductAttention, AdditiveAttention
with its LazyLinear W_k, W_q, w_v).

Changed: nn.Module is fathom.Module; nn.LazyLinear(num_hiddens,
bias=False) takes its input size; nn.Dropout is a small module;
torch.bmm is matmul; unsqueeze/squeeze(-1) are expand_dims/squeeze;
`self.attention_weights = masked_softmax(...)` in forward is a local
returned beside the output, since an instance is immutable once
__init__ returns (DSL rule).  The main block follows the chapter's
examples: 1-D then 2-D valid_lens, then both attention modules.
"""
import math

from fathom import *


def masked_softmax(X, valid_lens):
    """Perform softmax operation by masking elements on the last axis."""
    # X: 3D tensor, valid_lens: 1D or 2D tensor
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.shape[1]
        mask = arange(maxlen)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return softmax(X, axis=-1)
    else:
        shape = X.shape
        if valid_lens.ndim == 1:
            valid_lens = repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = reshape(valid_lens, (-1,))
        # On the last axis, replace masked elements with a very large negative
        # value, whose exponentiation outputs 0
        X = _sequence_mask(reshape(X, (-1, shape[-1])), valid_lens, value=-1e6)
        return softmax(reshape(X, shape), axis=-1)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class DotProductAttention(Module):
    """Scaled dot product attention."""

    def __init__(self, dropout):
        super().__init__()
        self.dropout = Dropout(dropout)

    # Shape of queries: (batch_size, no. of queries, d)
    # Shape of keys: (batch_size, no. of key-value pairs, d)
    # Shape of values: (batch_size, no. of key-value pairs, value dimension)
    # Shape of valid_lens: (batch_size,) or (batch_size, no. of queries)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        # Swap the last two dimensions of keys with keys.transpose(1, 2)
        scores = matmul(queries, keys.transpose(1, 2)) / math.sqrt(d)
        attention_weights = masked_softmax(scores, valid_lens)
        return matmul(self.dropout(attention_weights), values), attention_weights


class AdditiveAttention(Module):
    """Additive attention."""

    def __init__(self, key_size, query_size, num_hiddens, dropout):
        super().__init__()
        self.W_k = Linear(key_size, num_hiddens, bias=False)
        self.W_q = Linear(query_size, num_hiddens, bias=False)
        self.w_v = Linear(num_hiddens, 1, bias=False)
        self.dropout = Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # After dimension expansion, shape of queries: (batch_size, no. of
        # queries, 1, num_hiddens) and shape of keys: (batch_size, 1, no. of
        # key-value pairs, num_hiddens). Sum them up with broadcasting
        features = expand_dims(queries, 2) + expand_dims(keys, 1)
        features = tanh(features)
        # There is only one output of self.w_v, so we remove the last
        # one-dimensional entry from the shape. Shape of scores: (batch_size,
        # no. of queries, no. of key-value pairs)
        scores = squeeze(self.w_v(features), -1)
        attention_weights = masked_softmax(scores, valid_lens)
        # Shape of values: (batch_size, no. of key-value pairs, value
        # dimension)
        return matmul(self.dropout(attention_weights), values), attention_weights


if __name__ == "__main__":
    w = masked_softmax(random_uniform((2, 3, 4)), arange(2) + 2)
    assert w.shape == (2, 3, 4)
    w = masked_softmax(random_uniform((2, 2, 4)), reshape(arange(4) + 1, (2, 2)))
    assert w.shape == (2, 2, 4)
    queries = random_normal((2, 1, 2))
    keys = random_normal((2, 10, 2))
    values = random_normal((2, 10, 4))
    valid_lens = arange(2) * 4 + 2
    attention = DotProductAttention(dropout=0.5)
    out, weights = attention(queries, keys, values, valid_lens)
    assert out.shape == (2, 1, 4) and weights.shape == (2, 1, 10)
    queries = random_normal((2, 1, 20))
    attention = AdditiveAttention(key_size=2, query_size=20, num_hiddens=8, dropout=0.1)
    out, weights = attention(queries, keys, values, valid_lens)
    assert out.shape == (2, 1, 4) and weights.shape == (2, 1, 10)
    print("d2l attention scoring (classes) ok")
