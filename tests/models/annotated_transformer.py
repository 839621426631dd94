"""The encoder-decoder Transformer and greedy decoding, translated from
harvardnlp/annotated-transformer the_annotated_transformer.py (LayerNorm
with std, SublayerConnection, EncoderLayer and DecoderLayer with their
sublayer lambdas, subsequent_mask, attention with optional mask and
dropout, MultiHeadedAttention, PositionwiseFeedForward, Generator,
greedy_decode).

Changed: modules became functions over weight tuples (clones(...) are
lists of tuples); the dropout module passed to attention is a lambda over
fathom's dropout; .type(torch.uint8) is cast; .contiguous() is dropped;
unsqueeze is expand_dims; torch.max(prob, dim=1) is argmax; embeddings and
positional encoding are left out.  Sizes are tiny so the file runs fast.
"""
import math

from fathom import *


def layer_norm_ann(x, a_2, b_2, eps=1e-6):
    mu = mean(x, -1, keepdims=True)
    sd = std(x, -1, keepdims=True, ddof=1)
    return a_2 * (x - mu) / (sd + eps) + b_2


def sublayer_connection(x, norm, sublayer, dropout_p):
    return x + dropout(sublayer(layer_norm_ann(x, norm[0], norm[1])), dropout_p)


def subsequent_mask(size):
    attn_shape = (1, size, size)
    upper = cast(triu(ones(attn_shape), diagonal=1), u8)
    return upper == 0


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.shape[-1]
    scores = matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = softmax(scores, axis=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return matmul(p_attn, value), p_attn


def multi_headed_attention(linears, h, query, key, value, mask=None, dropout_p=0.1):
    if mask is not None:
        mask = expand_dims(mask, 1)
    nbatches = query.shape[0]
    d_k = query.shape[-1] // h
    query, key, value = [
        linear(x, w, b).view(nbatches, -1, h, d_k).transpose(1, 2)
        for (w, b), x in zip(linears, (query, key, value))
    ]
    x, attn = attention(query, key, value, mask=mask, dropout=lambda t: dropout(t, dropout_p))
    x = x.transpose(1, 2).view(nbatches, -1, h * d_k)
    return linear(x, linears[-1][0], linears[-1][1])


def feed_forward(x, w_1, b_1, w_2, b_2, dropout_p):
    return linear(dropout(relu(linear(x, w_1, b_1)), dropout_p), w_2, b_2)


def encoder_layer(x, mask, p, h, dropout_p):
    self_attn, ff, norms = p
    x = sublayer_connection(x, norms[0], lambda x: multi_headed_attention(self_attn, h, x, x, x, mask), dropout_p)
    return sublayer_connection(x, norms[1], lambda x: feed_forward(x, *ff, dropout_p), dropout_p)


def decoder_layer(x, memory, src_mask, tgt_mask, p, h, dropout_p):
    self_attn, src_attn, ff, norms = p
    m = memory
    x = sublayer_connection(x, norms[0], lambda x: multi_headed_attention(self_attn, h, x, x, x, tgt_mask), dropout_p)
    x = sublayer_connection(x, norms[1], lambda x: multi_headed_attention(src_attn, h, x, m, m, src_mask), dropout_p)
    return sublayer_connection(x, norms[2], lambda x: feed_forward(x, *ff, dropout_p), dropout_p)


def init(d_model, d_ff, vocab, N):
    lin = lambda n_in, n_out: (random_normal((n_out, n_in)) / math.sqrt(n_in), zeros((n_out,)))
    norm = (ones((d_model,)), zeros((d_model,)))
    mha = lambda: [lin(d_model, d_model) for _ in range(4)]
    ff = lambda: lin(d_model, d_ff) + lin(d_ff, d_model)
    enc = [(mha(), ff(), (norm, norm)) for _ in range(N)]
    dec = [(mha(), mha(), ff(), (norm, norm, norm)) for _ in range(N)]
    emb = random_normal((vocab, d_model))
    return enc, dec, norm, emb, lin(d_model, vocab)


def encode(params, src, src_mask, h):
    enc, dec, norm, emb, gen = params
    x = embedding(emb, src)
    for layer in enc:
        x = encoder_layer(x, src_mask, layer, h, 0.1)
    return layer_norm_ann(x, norm[0], norm[1])


def decode(params, memory, src_mask, tgt, tgt_mask, h):
    enc, dec, norm, emb, gen = params
    x = embedding(emb, tgt)
    for layer in dec:
        x = decoder_layer(x, memory, src_mask, tgt_mask, layer, h, 0.1)
    return layer_norm_ann(x, norm[0], norm[1])


def greedy_decode(params, src, src_mask, max_len, start_symbol, h):
    memory = encode(params, src, src_mask, h)
    gen_w, gen_b = params[4]
    ys = full((1, 1), start_symbol, src.dtype)
    for i in range(max_len - 1):
        out = decode(params, memory, src_mask, ys, subsequent_mask(ys.shape[1]), h)
        prob = log_softmax(linear(out[:, -1], gen_w, gen_b), axis=-1)
        next_word = argmax(prob, axis=1)
        ys = concat([ys, full((1, 1), int(next_word[0]), src.dtype)], axis=1)
    return ys


if __name__ == "__main__":
    d_model, d_ff, vocab, N, h = 16, 32, 11, 2, 4
    params = init(d_model, d_ff, vocab, N)
    src = reshape(arange(1, 11), (1, 10))
    src_mask = ones((1, 1, 10))
    ys = greedy_decode(params, src, src_mask, 6, 0, h)
    assert ys.shape == (1, 6)
    print("annotated transformer ok", ys)
