"""GPT forward pass with loss, translated from karpathy/nanoGPT model.py
(LayerNorm with optional bias, CausalSelfAttention with the `flash` switch,
MLP, Block, GPT.forward with targets).

Changed: classes became functions taking their weights as tuples and the
config fields (n_head, dropout, bias, flash) as arguments;
scaled_dot_product_attention (the flash path) is written out with a causal
mask from tril; F.cross_entropy is log_softmax + one_hot; x[:, [-1], :] is
x[:, -1:, :]; .contiguous() is dropped.  Sizes are tiny so the file runs
fast.
"""
import math

from fathom import *


def linear_params(n_in, n_out, bias):
    w = random_normal((n_out, n_in)) * 0.02
    b = zeros((n_out,)) if bias else None
    return w, b


def layer_norm_params(ndim, bias):
    return ones((ndim,)), (zeros((ndim,)) if bias else None)


def causal_mask(block_size):
    return tril(ones((block_size, block_size))).view(1, 1, block_size, block_size)


def scaled_dot_product_attention(q, k, v, dropout_p):
    t = q.shape[-2]
    att = matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    allowed = tril(ones((t, t), dtype=bool_))
    att = softmax(att.masked_fill(~allowed, float('-inf')), axis=-1)
    return dropout(att, dropout_p) @ v


def causal_self_attention(x, p, n_head, dropout_p, flash, mask):
    c_attn_w, c_attn_b, c_proj_w, c_proj_b = p
    B, T, C = x.shape
    q, k, v = split(linear(x, c_attn_w, c_attn_b), 3, axis=2)
    k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
    q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
    v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
    if flash:
        y = scaled_dot_product_attention(q, k, v, dropout_p)
    else:
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.shape[-1]))
        att = att.masked_fill(mask[:, :, :T, :T] == 0, float('-inf'))
        att = softmax(att, axis=-1)
        att = dropout(att, dropout_p)
        y = att @ v
    y = y.transpose(1, 2).view(B, T, C)
    return dropout(linear(y, c_proj_w, c_proj_b), dropout_p)


def mlp(x, p, dropout_p):
    c_fc_w, c_fc_b, c_proj_w, c_proj_b = p
    x = gelu(linear(x, c_fc_w, c_fc_b))
    return dropout(linear(x, c_proj_w, c_proj_b), dropout_p)


def block(x, p, n_head, dropout_p, flash, mask):
    ln_1, attn, ln_2, mlp_p = p
    x = x + causal_self_attention(layer_norm(x, ln_1[0], ln_1[1]), attn,
                                  n_head, dropout_p, flash, mask)
    x = x + mlp(layer_norm(x, ln_2[0], ln_2[1]), mlp_p, dropout_p)
    return x


def init_gpt(block_size, vocab_size, n_layer, n_embd, bias):
    wte = random_normal((vocab_size, n_embd)) * 0.02
    wpe = random_normal((block_size, n_embd)) * 0.02
    blocks = []
    for _ in range(n_layer):
        attn = linear_params(n_embd, 3 * n_embd, bias) + linear_params(n_embd, n_embd, bias)
        fc = linear_params(n_embd, 4 * n_embd, bias) + linear_params(4 * n_embd, n_embd, bias)
        blocks.append((layer_norm_params(n_embd, bias), attn,
                       layer_norm_params(n_embd, bias), fc))
    return wte, wpe, blocks, layer_norm_params(n_embd, bias)


def gpt_forward(params, idx, targets, block_size, n_head, dropout_p, flash):
    wte, wpe, blocks, ln_f = params
    b, t = idx.shape
    assert t <= block_size
    pos = arange(t)
    x = dropout(embedding(wte, idx) + embedding(wpe, pos), dropout_p)
    mask = causal_mask(block_size)
    for p in blocks:
        x = block(x, p, n_head, dropout_p, flash, mask)
    x = layer_norm(x, ln_f[0], ln_f[1])
    if targets is not None:
        logits = linear(x, wte)
        logp = log_softmax(reshape(logits, (-1, logits.shape[-1])), axis=-1)
        onehot = one_hot(reshape(targets, (-1,)), logits.shape[-1])
        loss = -mean(reduce_sum(onehot * logp, axis=1))
    else:
        logits = linear(x[:, -1:, :], wte)
        loss = None
    return logits, loss


if __name__ == "__main__":
    block_size, vocab_size, n_layer, n_head, n_embd = 16, 32, 2, 2, 8
    params = init_gpt(block_size, vocab_size, n_layer, n_embd, False)
    idx = cast(random_uniform((2, 8)) * vocab_size, i64)
    targets = cast(random_uniform((2, 8)) * vocab_size, i64)
    logits, loss = gpt_forward(params, idx, targets, block_size, n_head, 0.0, True)
    assert logits.shape == (2, 8, vocab_size)
    assert loss.shape == ()
    print("nanogpt ok", float(loss))
