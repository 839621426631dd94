# expect-error at line 247: shape-mismatch
# Planted bug: BERTModel builds the next-sentence head on ffn_num_hiddens (32) while the pooled <cls> vector is num_hiddens (16) wide; reported at the call self.output(X) that passes the 16-wide vector (the Linear works for its other calls), with notes at the failing operation and the construction.
"""BERT (the encoder, the masked language model and next sentence
prediction heads), translated from d2l-ai/d2l-en
chapter_natural-language-processing-pretraining/bert.md (PyTorch tab) with
the pieces it takes from the d2l package: masked_softmax,
DotProductAttention, MultiHeadAttention (transpose_qkv /
transpose_output), PositionWiseFFN, AddNorm and TransformerEncoderBlock
(chapter_attention-mechanisms-and-transformers).

Changed: nn.Module is fathom.Module; nn.LazyLinear takes its input size;
nn.Embedding, nn.LayerNorm, nn.Dropout are small classes; nn.Sequential
blocks are a list built by a comprehension; torch.bmm is matmul; MaskLM's
advanced index X[batch_idx, pred_positions] is a take on the flattened
(batch * seq, hidden) rows at batch_idx * seq + pred_positions; the main
block follows the chapter's example with smaller sizes.
"""
import math

from fathom import (Module, arange, concat, dropout, embedding, f32, i64, layer_norm,
                    linear, matmul, random_normal, random_uniform, cast, relu,
                    repeat_interleave, reshape, softmax, take, tanh, zeros, ones, mean,
                    reduce_sum, log_softmax, one_hot)


def masked_softmax(X, valid_lens):
    """Perform softmax operation by masking elements on the last axis."""
    # X: 3D tensor, valid_lens: 1D or 2D tensor
    if valid_lens is None:
        return softmax(X, axis=-1)
    shape = X.shape
    if valid_lens.ndim == 1:
        valid_lens = repeat_interleave(valid_lens, shape[1], 0)
    else:
        valid_lens = valid_lens.reshape(-1)
    # On the last axis, replace masked elements with a very large negative
    # value, whose exponentiation outputs 0
    X = X.reshape(-1, shape[-1])
    mask = arange(shape[-1])[None, :] < valid_lens[:, None]
    X[~mask] = -1e6
    return softmax(X.reshape(shape), axis=-1)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, X):
        return linear(X, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim))

    def forward(self, ids):
        return embedding(self.weight, ids)


class LayerNorm(Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.weight = ones((normalized_shape,))
        self.bias = zeros((normalized_shape,))

    def forward(self, X):
        return layer_norm(X, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, X):
        return dropout(X, self.p)


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
        return matmul(self.dropout(attention_weights), values)


class MultiHeadAttention(Module):
    """Multi-head attention."""

    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_k = Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_v = Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_o = Linear(num_hiddens, num_hiddens, bias=bias)

    def transpose_qkv(self, X):
        """Transposition for parallel computation of multiple attention heads."""
        # Shape of input X: (batch_size, no. of queries or key-value pairs,
        # num_hiddens). Shape of output X: (batch_size, no. of queries or
        # key-value pairs, num_heads, num_hiddens / num_heads)
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def transpose_output(self, X):
        """Reverse the operation of transpose_qkv."""
        X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)

    def forward(self, queries, keys, values, valid_lens):
        # Shape of queries, keys, or values:
        # (batch_size, no. of queries or key-value pairs, num_hiddens)
        queries = self.transpose_qkv(self.W_q(queries))
        keys = self.transpose_qkv(self.W_k(keys))
        values = self.transpose_qkv(self.W_v(values))

        if valid_lens is not None:
            # On axis 0, copy the first item (scalar or vector) for num_heads
            # times, then copy the next item, and so on
            valid_lens = repeat_interleave(valid_lens, self.num_heads, 0)

        # Shape of output: (batch_size * num_heads, no. of queries,
        # num_hiddens / num_heads)
        output = self.attention(queries, keys, values, valid_lens)
        # Shape of output_concat: (batch_size, no. of queries, num_hiddens)
        output_concat = self.transpose_output(output)
        return self.W_o(output_concat)


class PositionWiseFFN(Module):
    """The positionwise feed-forward network."""

    def __init__(self, num_inputs, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = Linear(num_inputs, ffn_num_hiddens)
        self.dense2 = Linear(ffn_num_hiddens, ffn_num_outputs)

    def forward(self, X):
        return self.dense2(relu(self.dense1(X)))


class AddNorm(Module):
    """The residual connection followed by layer normalization."""

    def __init__(self, norm_shape, dropout):
        super().__init__()
        self.dropout = Dropout(dropout)
        self.ln = LayerNorm(norm_shape)

    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)


class TransformerEncoderBlock(Module):
    """The Transformer encoder block."""

    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(num_hiddens, ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens, dropout)

    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class BERTEncoder(Module):
    """BERT encoder."""

    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout,
                 max_len=1000):
        super().__init__()
        self.token_embedding = Embedding(vocab_size, num_hiddens)
        self.segment_embedding = Embedding(2, num_hiddens)
        self.blks = [TransformerEncoderBlock(num_hiddens, ffn_num_hiddens, num_heads, dropout, True)
                     for _ in range(num_blks)]
        # In BERT, positional embeddings are learnable, thus we create a
        # parameter of positional embeddings that are long enough
        self.pos_embedding = random_normal((1, max_len, num_hiddens))

    def forward(self, tokens, segments, valid_lens):
        # Shape of X remains unchanged in the following code snippet:
        # (batch size, max sequence length, num_hiddens)
        X = self.token_embedding(tokens) + self.segment_embedding(segments)
        X = X + self.pos_embedding[:, :X.shape[1], :]
        for blk in self.blks:
            X = blk(X, valid_lens)
        return X


class MaskLM(Module):
    """The masked language model task of BERT."""

    def __init__(self, vocab_size, num_hiddens, num_inputs):
        super().__init__()
        self.dense1 = Linear(num_inputs, num_hiddens)
        self.ln = LayerNorm(num_hiddens)
        self.dense2 = Linear(num_hiddens, vocab_size)

    def mlp(self, X):
        return self.dense2(self.ln(relu(self.dense1(X))))

    def forward(self, X, pred_positions):
        num_pred_positions = pred_positions.shape[1]
        pred_positions = pred_positions.reshape(-1)
        batch_size, seq_len = X.shape[0], X.shape[1]
        batch_idx = arange(batch_size)
        # Suppose that batch_size = 2, num_pred_positions = 3, then
        # batch_idx is np.array([0, 0, 0, 1, 1, 1])
        batch_idx = repeat_interleave(batch_idx, num_pred_positions, 0)
        rows = X.reshape(batch_size * seq_len, -1)
        masked_X = take(rows, batch_idx * seq_len + pred_positions, axis=0)
        masked_X = masked_X.reshape(batch_size, num_pred_positions, -1)
        mlm_Y_hat = self.mlp(masked_X)
        return mlm_Y_hat


class NextSentencePred(Module):
    """The next sentence prediction task of BERT."""

    def __init__(self, num_inputs):
        super().__init__()
        self.output = Linear(num_inputs, 2)

    def forward(self, X):
        # X shape: (batch size, num_hiddens)
        return self.output(X)


class BERTModel(Module):
    """The BERT model."""

    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout,
                 max_len=1000):
        super().__init__()
        self.encoder = BERTEncoder(vocab_size, num_hiddens, ffn_num_hiddens, num_heads,
                                   num_blks, dropout, max_len=max_len)
        self.hidden = Linear(num_hiddens, num_hiddens)
        self.mlm = MaskLM(vocab_size, num_hiddens, num_hiddens)
        self.nsp = NextSentencePred(ffn_num_hiddens)

    def forward(self, tokens, segments, valid_lens=None, pred_positions=None):
        encoded_X = self.encoder(tokens, segments, valid_lens)
        if pred_positions is not None:
            mlm_Y_hat = self.mlm(encoded_X, pred_positions)
        else:
            mlm_Y_hat = None
        # The hidden layer of the MLP classifier for next sentence prediction.
        # 0 is the index of the '<cls>' token
        nsp_Y_hat = self.nsp(tanh(self.hidden(encoded_X[:, 0, :])))
        return encoded_X, mlm_Y_hat, nsp_Y_hat


if __name__ == "__main__":
    vocab_size, num_hiddens, ffn_num_hiddens, num_heads = 100, 16, 32, 4
    num_blks, dropout_p = 2, 0.2
    net = BERTModel(vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout_p,
                    max_len=64)

    tokens = cast(random_uniform((2, 8)) * vocab_size, i64)
    segments = concat((zeros((2, 4), i64), ones((2, 4), i64)), 1)
    valid_lens = cast(random_uniform((2,)) * 4.0, i64) + 4
    encoded_X = net.encoder(tokens, segments, valid_lens)
    assert encoded_X.shape == (2, 8, num_hiddens)

    mlm_positions = cast(random_uniform((2, 3)) * 8.0, i64)
    encoded_X, mlm_Y_hat, nsp_Y_hat = net(tokens, segments, valid_lens, mlm_positions)
    assert mlm_Y_hat.shape == (2, 3, vocab_size)
    assert nsp_Y_hat.shape == (2, 2)
    mlm_Y = cast(random_uniform((2, 3)) * vocab_size, i64)
    mlm_l = mean(-reduce_sum(log_softmax(mlm_Y_hat.reshape((-1, vocab_size)), axis=-1)
                             * one_hot(mlm_Y.reshape(-1), vocab_size), axis=-1))
    print("bert ok", mlm_Y_hat.shape, nsp_Y_hat.shape, float(mlm_l))
