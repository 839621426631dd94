# expect-error at line 86: index-out-of-range
# Planted bug: the sampling branch takes argmax over axis 2 as if the logits were still (B, T, V); they are (B, V) after logits[:, -1, :]. main calls generate with do_sample=False, so only the branch the flag turns off is wrong.
"""A one-block GPT and its sampling loop, translated from karpathy/minGPT
mingpt/model.py (NewGELU, CausalSelfAttention with the registered causal
mask, Block with its `mlpf` lambda, GPT.forward, GPT.generate).

Changed: classes became functions over weight tuples; torch.pow is **;
F.cross_entropy is log_softmax + one_hot; v[:, [-1]] is v[:, -1:]; generate
samples (torch.multinomial) with the Gumbel-max trick.  Sizes are tiny so
the file runs fast.
"""
import math

from fathom import *


def new_gelu(x):
    return 0.5 * x * (1.0 + tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3.0)))


def attention(x, p, n_head, mask, attn_pdrop):
    c_attn_w, c_attn_b, c_proj_w, c_proj_b = p
    B, T, C = x.shape
    q, k, v = split(linear(x, c_attn_w, c_attn_b), 3, axis=2)
    k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
    q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
    v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.shape[-1]))
    att = att.masked_fill(mask[:, :, :T, :T] == 0, float('-inf'))
    att = dropout(softmax(att, axis=-1), attn_pdrop)
    y = att @ v
    y = y.transpose(1, 2).view(B, T, C)
    return linear(y, c_proj_w, c_proj_b)


def block(x, p, n_head, mask, pdrop):
    ln_1, attn, ln_2, mlp = p
    c_fc_w, c_fc_b, c_proj_w, c_proj_b = mlp
    mlpf = lambda h: dropout(linear(new_gelu(linear(h, c_fc_w, c_fc_b)), c_proj_w, c_proj_b), pdrop)
    x = x + attention(layer_norm(x, ln_1[0], ln_1[1]), attn, n_head, mask, pdrop)
    x = x + mlpf(layer_norm(x, ln_2[0], ln_2[1]))
    return x


def init(vocab_size, block_size, n_embd):
    def lin(n_in, n_out):
        return random_normal((n_out, n_in)) * 0.02, zeros((n_out,))
    ln = (ones((n_embd,)), zeros((n_embd,)))
    attn = lin(n_embd, 3 * n_embd) + lin(n_embd, n_embd)
    mlp = lin(n_embd, 4 * n_embd) + lin(4 * n_embd, n_embd)
    mask = tril(ones((block_size, block_size))).view(1, 1, block_size, block_size)
    wte = random_normal((vocab_size, n_embd)) * 0.02
    wpe = random_normal((block_size, n_embd)) * 0.02
    lm_head = random_normal((vocab_size, n_embd)) * 0.02
    return wte, wpe, (ln, attn, ln, mlp), ln, lm_head, mask


def forward(params, idx, n_head, targets=None):
    wte, wpe, blk, ln_f, lm_head, mask = params
    b, t = idx.shape
    assert t <= mask.shape[-1]
    pos = expand_dims(arange(t), 0)
    x = embedding(wte, idx) + embedding(wpe, pos)
    x = block(x, blk, n_head, mask, 0.1)
    x = layer_norm(x, ln_f[0], ln_f[1])
    logits = linear(x, lm_head)
    loss = None
    if targets is not None:
        logp = log_softmax(reshape(logits, (-1, logits.shape[-1])), axis=-1)
        loss = -mean(reduce_sum(one_hot(reshape(targets, (-1,)), logits.shape[-1]) * logp, axis=1))
    return logits, loss


def generate(params, idx, max_new_tokens, n_head, block_size, temperature=1.0, do_sample=False,
             top_k=None):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.shape[1] <= block_size else idx[:, -block_size:]
        logits, _ = forward(params, idx_cond, n_head)
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = topk(logits, top_k)
            logits[logits < v[:, -1:]] = -float('Inf')
        probs = softmax(logits, axis=-1)
        if do_sample:
            gumbel = -log(-log(random_uniform(probs.shape) + 1e-9) + 1e-9)
            idx_next = argmax(log(probs + 1e-9) + gumbel, axis=2, keepdims=True)
        else:
            _, idx_next = topk(probs, k=1, axis=-1)
        idx = concat((idx, idx_next), axis=1)
    return idx


if __name__ == "__main__":
    vocab_size, block_size, n_embd, n_head = 16, 8, 8, 2
    params = init(vocab_size, block_size, n_embd)
    idx = cast(random_uniform((2, 6)) * vocab_size, i64)
    logits, loss = forward(params, idx, n_head, idx)
    assert logits.shape == (2, 6, vocab_size) and loss.shape == ()
    out = generate(params, idx, 4, n_head, block_size)
    assert out.shape == (2, 10)
    assert generate(params, idx, 2, n_head, block_size, top_k=3).shape == (2, 8)
    print("mingpt ok", float(loss))
