"""The building blocks of llama2.c's model.py: RMSNorm, the rotary
embeddings, repeat_kv, Attention and FeedForward."""
import math

from fathom import *

from .config import ModelArgs


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class RMSNorm(Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = ones((dim,))

    def _norm(self, x):
        return x * (1.0 / sqrt(mean(x ** 2, axis=-1, keepdims=True) + self.eps))

    def forward(self, x):
        output = cast(self._norm(cast(x, f32)), x.dtype)
        return output * self.weight


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (cast(arange(0, dim, 2)[: (dim // 2)], f32) / dim))
    t = cast(arange(end), f32)
    freqs = reshape(t, (end, 1)) * reshape(freqs, (1, -1))  # torch.outer
    freqs_cos = cos(freqs)  # real part
    freqs_sin = sin(freqs)  # imaginary part
    return freqs_cos, freqs_sin


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(shape)


def apply_rotary_emb(xq, xk, freqs_cos, freqs_sin):
    # reshape xq and xk to match the complex representation
    xq_c = reshape(cast(xq, f32), xq.shape[:-1] + (-1, 2))
    xk_c = reshape(cast(xk, f32), xk.shape[:-1] + (-1, 2))
    xq_r, xq_i = xq_c[..., 0], xq_c[..., 1]
    xk_r, xk_i = xk_c[..., 0], xk_c[..., 1]

    # reshape freqs_cos and freqs_sin for broadcasting
    freqs_cos = reshape_for_broadcast(freqs_cos, xq_r)
    freqs_sin = reshape_for_broadcast(freqs_sin, xq_r)

    # apply rotation using real numbers
    xq_out_r = xq_r * freqs_cos - xq_i * freqs_sin
    xq_out_i = xq_r * freqs_sin + xq_i * freqs_cos
    xk_out_r = xk_r * freqs_cos - xk_i * freqs_sin
    xk_out_i = xk_r * freqs_sin + xk_i * freqs_cos

    # flatten last two dimensions
    xq_out = flatten(stack([xq_out_r, xq_out_i], axis=-1), 3)
    xk_out = flatten(stack([xk_out_r, xk_out_i], axis=-1), 3)

    return cast(xq_out, xq.dtype), cast(xk_out, xk.dtype)


def repeat_kv(x, n_rep):
    """torch.repeat_interleave(x, dim=2, repeats=n_rep)"""
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return reshape(
        broadcast_to(x[:, :, :, None, :], (bs, slen, n_kv_heads, n_rep, head_dim)),
        (bs, slen, n_kv_heads * n_rep, head_dim),
    )


class Attention(Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.n_kv_heads = args.n_heads if args.n_kv_heads is None else args.n_kv_heads
        assert args.n_heads % self.n_kv_heads == 0
        model_parallel_size = 1
        self.n_local_heads = args.n_heads // model_parallel_size
        self.n_local_kv_heads = self.n_kv_heads // model_parallel_size
        self.n_rep = self.n_local_heads // self.n_local_kv_heads
        self.head_dim = args.dim // args.n_heads
        self.wq = Linear(args.dim, args.n_heads * self.head_dim, bias=False)
        self.wk = Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = Linear(args.n_heads * self.head_dim, args.dim, bias=False)
        self.attn_dropout = Dropout(args.dropout)
        self.resid_dropout = Dropout(args.dropout)
        self.dropout = args.dropout

        # use flash attention or a manual implementation?
        self.flash = True
        if not self.flash:
            print("WARNING: using slow attention. Flash Attention requires PyTorch >= 2.0")
            mask = full((1, 1, args.max_seq_len, args.max_seq_len), float("-inf"))
            self.mask = triu(mask, 1)

    def forward(self, x, freqs_cos, freqs_sin):
        bsz, seqlen, _ = x.shape

        # QKV
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_local_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_local_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_local_kv_heads, self.head_dim)

        # RoPE relative positional embeddings
        xq, xk = apply_rotary_emb(xq, xk, freqs_cos, freqs_sin)

        # grouped multiquery attention: expand out keys and values
        xk = repeat_kv(xk, self.n_rep)  # (bs, seqlen, n_local_heads, head_dim)
        xv = repeat_kv(xv, self.n_rep)  # (bs, seqlen, n_local_heads, head_dim)

        # make heads into a batch dimension
        xq = xq.transpose(1, 2)  # (bs, n_local_heads, seqlen, head_dim)
        xk = xk.transpose(1, 2)
        xv = xv.transpose(1, 2)

        # flash implementation
        if self.flash:
            scores = matmul(xq, xk.transpose(-2, -1)) / math.sqrt(self.head_dim)
            causal = tril(ones((seqlen, seqlen), dtype=bool_))
            scores = softmax(where(causal, scores, float("-inf")), axis=-1)
            output = matmul(dropout(scores, self.dropout), xv)
        else:
            # manual implementation
            scores = matmul(xq, xk) / math.sqrt(self.head_dim)  # expect-error: shape-mismatch
            scores = scores + self.mask[:, :, :seqlen, :seqlen]   # (bs, n_local_heads, seqlen, cache_len + seqlen)
            scores = cast(softmax(cast(scores, f32), axis=-1), xq.dtype)
            scores = self.attn_dropout(scores)
            output = matmul(scores, xv)  # (bs, n_local_heads, seqlen, head_dim)

        # restore time as batch dimension and concat heads
        output = output.transpose(1, 2).view(bsz, seqlen, -1)

        # final projection into the residual stream
        output = self.wo(output)
        output = self.resid_dropout(output)
        return output


class FeedForward(Module):
    def __init__(self, dim, hidden_dim, multiple_of, dropout):
        super().__init__()
        if hidden_dim is None:
            hidden_dim = 4 * dim
            hidden_dim = int(2 * hidden_dim / 3)
            hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = Linear(dim, hidden_dim, bias=False)
        self.w2 = Linear(hidden_dim, dim, bias=False)
        self.w3 = Linear(dim, hidden_dim, bias=False)
        self.dropout = Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.w2(silu(self.w1(x)) * self.w3(x)))
