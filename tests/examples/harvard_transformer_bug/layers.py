"""Planted bug: LayerNorm.forward's mean drops keepdims, so x - mean_ meets
(1, T, d_model) against (1, T): only the callers' shapes show it.

The parts of the Annotated Transformer's model."""
import math

from fathom import *


class Linear(Module):
    def __init__(self, in_features, out_features):
        super(Linear, self).__init__()
        self.weight = random_normal((out_features, in_features)) / math.sqrt(in_features)
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p):
        super(Dropout, self).__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class Sequential(Module):
    def __init__(self, *layers):
        super(Sequential, self).__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def clones(module, N):
    "Produce N identical layers."
    return [module for _ in range(N)]


class Generator(Module):
    "Define standard linear + softmax generation step."

    def __init__(self, d_model, vocab):
        super(Generator, self).__init__()
        self.proj = Linear(d_model, vocab)

    def forward(self, x):
        return log_softmax(self.proj(x), axis=-1)


class LayerNorm(Module):
    "Construct a layernorm module (See citation for details)."

    def __init__(self, features, eps=1e-6):
        super(LayerNorm, self).__init__()
        self.a_2 = ones((features,))
        self.b_2 = zeros((features,))
        self.eps = eps

    def forward(self, x):
        mean_ = mean(x, -1)
        std_ = std(x, -1, keepdims=True, ddof=1)
        return self.a_2 * (x - mean_) / (std_ + self.eps) + self.b_2  # expect-error: shape-mismatch


class SublayerConnection(Module):
    """
    A residual connection followed by a layer norm.
    Note for code simplicity the norm is first as opposed to last.
    """

    def __init__(self, size, dropout):
        super(SublayerConnection, self).__init__()
        self.norm = LayerNorm(size)
        self.dropout = Dropout(dropout)

    def forward(self, x, sublayer):
        "Apply residual connection to any sublayer with the same size."
        return x + self.dropout(sublayer(self.norm(x)))


def attention(query, key, value, mask=None, dropout=None):
    "Compute 'Scaled Dot Product Attention'"
    d_k = query.shape[-1]
    scores = matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = softmax(scores, axis=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return matmul(p_attn, value), p_attn


class MultiHeadedAttention(Module):
    def __init__(self, h, d_model, dropout=0.1):
        "Take in model size and number of heads."
        super(MultiHeadedAttention, self).__init__()
        assert d_model % h == 0
        # We assume d_v always equals d_k
        self.d_k = d_model // h
        self.h = h
        self.linears = clones(Linear(d_model, d_model), 4)
        self.dropout = Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        "Implements Figure 2"
        if mask is not None:
            # Same mask applied to all h heads.
            mask = expand_dims(mask, 1)
        nbatches = query.shape[0]

        # 1) Do all the linear projections in batch from d_model => h x d_k
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
            for lin, x in zip(self.linears, (query, key, value))
        ]

        # 2) Apply attention on all the projected vectors in batch.
        x, attn = attention(query, key, value, mask=mask, dropout=self.dropout)

        # 3) "Concat" using a view and apply a final linear.
        x = x.transpose(1, 2).view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)


class PositionwiseFeedForward(Module):
    "Implements FFN equation."

    def __init__(self, d_model, d_ff, dropout=0.1):
        super(PositionwiseFeedForward, self).__init__()
        self.w_1 = Linear(d_model, d_ff)
        self.w_2 = Linear(d_ff, d_model)
        self.dropout = Dropout(dropout)

    def forward(self, x):
        return self.w_2(self.dropout(relu(self.w_1(x))))


class Embeddings(Module):
    def __init__(self, d_model, vocab):
        super(Embeddings, self).__init__()
        self.lut = random_normal((vocab, d_model))
        self.d_model = d_model

    def forward(self, x):
        return embedding(self.lut, x) * math.sqrt(self.d_model)


class PositionalEncoding(Module):
    "Implement the PE function."

    def __init__(self, d_model, dropout, max_len=64):
        super(PositionalEncoding, self).__init__()
        self.dropout = Dropout(p=dropout)

        # Compute the positional encodings once in log space.
        pe = zeros((max_len, d_model))
        position = cast(expand_dims(arange(0, max_len), 1), f32)
        div_term = exp(arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = sin(position * div_term)
        pe[:, 1::2] = cos(position * div_term)
        self.pe = expand_dims(pe, 0)

    def forward(self, x):
        x = x + self.pe[:, : x.shape[1]]
        return self.dropout(x)
