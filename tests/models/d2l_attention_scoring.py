"""Masked softmax, scaled dot-product attention and additive attention,
translated from d2l-ai/d2l-en
chapter_attention-mechanisms-and-transformers/attention-scoring-functions.md
(PyTorch tab: masked_softmax with its nested _sequence_mask, the
valid_lens None / 1-D / 2-D cases, DotProductAttention, AdditiveAttention).

Changed: the modules became functions taking their weights and the dropout
rate; torch.bmm is matmul; unsqueeze/squeeze(-1) are
expand_dims/squeeze; the attention weights are
returned instead of stored on self.  The main block calls masked_softmax with 1-D lengths (as the
chapter's first example, with 3 queries) and uses the 2-D
valid_lens form (one length per query), as the chapter's second example.
"""
import math

from fathom import *


def masked_softmax(X, valid_lens):
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
        X = _sequence_mask(reshape(X, (-1, shape[-1])), valid_lens, value=-1e6)
        return softmax(reshape(X, shape), axis=-1)


def dot_product_attention(queries, keys, values, valid_lens, dropout_p):
    d = queries.shape[-1]
    scores = matmul(queries, keys.transpose(1, 2)) / math.sqrt(d)
    attention_weights = masked_softmax(scores, valid_lens)
    return matmul(dropout(attention_weights, dropout_p), values), attention_weights


def additive_attention(W_q, W_k, w_v, queries, keys, values, valid_lens, dropout_p):
    queries, keys = linear(queries, W_q), linear(keys, W_k)
    features = expand_dims(queries, 2) + expand_dims(keys, 1)
    features = tanh(features)
    scores = squeeze(linear(features, w_v), -1)
    attention_weights = masked_softmax(scores, valid_lens)
    return matmul(dropout(attention_weights, dropout_p), values), attention_weights


if __name__ == "__main__":
    w = masked_softmax(random_uniform((2, 3, 4)), arange(2) + 2)
    assert w.shape == (2, 3, 4)
    w = masked_softmax(random_uniform((2, 2, 4)), reshape(arange(4) + 1, (2, 2)))
    assert w.shape == (2, 2, 4)
    queries = random_normal((2, 3, 2))
    keys = random_normal((2, 10, 2))
    values = random_normal((2, 10, 4))
    valid_lens = reshape(arange(6) + 2, (2, 3))
    out, weights = dot_product_attention(queries, keys, values, valid_lens, 0.0)
    assert out.shape == (2, 3, 4) and weights.shape == (2, 3, 10)
    num_hiddens = 8
    W_q = random_normal((num_hiddens, 20)) * 0.1
    W_k = random_normal((num_hiddens, 2)) * 0.1
    w_v = random_normal((1, num_hiddens)) * 0.1
    queries = random_normal((2, 3, 20))
    out, weights = additive_attention(W_q, W_k, w_v, queries, keys, values, valid_lens, 0.1)
    assert out.shape == (2, 3, 4) and weights.shape == (2, 3, 10)
    print("d2l attention scoring ok")
