"""Mistral 7B reference model, translated from mistralai/mistral-src
one_file_ref.py (commit 26a52a1 of mistral-inference): the TransformerArgs
dataclass, repeat_kv (torch.repeat_interleave on the head axis),
_reshape_for_broadcast, apply_rotary_emb, Attention with grouped-query
attention and the kv cache, FeedForward (SwiGLU), RMSNorm, TransformerBlock,
precompute_freqs_cis and Transformer with its causal mask.

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding are small
classes; complex rotary tables are (cos, sin) pairs and the complex product
is written with real numbers; `scatter_` into the cache is an item
assignment at the positions; `.item()` is int(); the model runs in f32
(the caches too); from_folder, the tokenizer and generate are left out.
"""
import math
from dataclasses import dataclass
from typing import List, Optional, Tuple

from fathom import *


@dataclass
class TransformerArgs:
    dim: int
    n_layers: int
    head_dim: int
    hidden_dim: int
    n_heads: int
    n_kv_heads: int
    norm_eps: float
    vocab_size: int

    # For rotary embeddings. If not set, will be inferred
    rope_theta: Optional[float] = None

    max_seq_len: int = 16384
    max_batch_size: int = 0


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim))

    def forward(self, ids):
        return embedding(self.weight, ids)


def repeat_kv(keys, values, repeats):
    keys = repeat_interleave(keys, repeats=repeats, axis=2)
    values = repeat_interleave(values, repeats=repeats, axis=2)
    return keys, values


def _reshape_for_broadcast(freqs_cis, x):
    """
    freqs_cis: complex - (seq_len, head_dim / 2)
    x: complex - (bsz, seq_len, head_dim / 2)
    """
    ndim = x.ndim
    assert 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1]), (
        freqs_cis.shape,
        (x.shape[1], x.shape[-1]),
    )
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    freqs_cos, freqs_sin = freqs_cis
    xq_ = cast(xq, f32).reshape(*xq.shape[:-1], -1, 2)
    xk_ = cast(xk, f32).reshape(*xk.shape[:-1], -1, 2)
    xq_r, xq_i = xq_[..., 0], xq_[..., 1]
    xk_r, xk_i = xk_[..., 0], xk_[..., 1]
    freqs_cos = _reshape_for_broadcast(freqs_cos, xq_r)
    freqs_sin = _reshape_for_broadcast(freqs_sin, xq_r)
    xq_out = stack([xq_r * freqs_cos - xq_i * freqs_sin, xq_r * freqs_sin + xq_i * freqs_cos], axis=-1).flatten(3)
    xk_out = stack([xk_r * freqs_cos - xk_i * freqs_sin, xk_r * freqs_sin + xk_i * freqs_cos], axis=-1).flatten(3)
    return cast(xq_out, xq.dtype), cast(xk_out, xk.dtype)


class Attention(Module):
    def __init__(self, args):
        super().__init__()
        self.args = args

        self.n_heads = args.n_heads
        self.n_kv_heads = args.n_kv_heads

        self.repeats = self.n_heads // self.n_kv_heads

        self.scale = self.args.head_dim**-0.5

        self.wq = Linear(args.dim, args.n_heads * args.head_dim, bias=False)
        self.wk = Linear(args.dim, args.n_kv_heads * args.head_dim, bias=False)
        self.wv = Linear(args.dim, args.n_kv_heads * args.head_dim, bias=False)
        self.wo = Linear(args.n_heads * args.head_dim, args.dim, bias=False)
        self.cache_k = zeros(
            (
                args.max_batch_size,
                args.max_seq_len,
                self.n_kv_heads,
                self.args.head_dim,
            ),
            dtype=f32,
        )
        self.cache_v = zeros(
            (
                args.max_batch_size,
                args.max_seq_len,
                self.n_kv_heads,
                self.args.head_dim,
            ),
            dtype=f32,
        )

    def forward(self, x, freqs_cis, positions, mask):
        bsz, seqlen, _ = x.shape

        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_heads, self.args.head_dim)
        xk = xk.view(bsz, seqlen, self.n_kv_heads, self.args.head_dim)
        xv = xv.view(bsz, seqlen, self.n_kv_heads, self.args.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)

        # cache (scatter_ along the sequence axis at `positions`)
        cache_k = self.cache_k
        cache_v = self.cache_v
        cache_k[:bsz, positions] = xk
        cache_v[:bsz, positions] = xv

        if positions.shape[0] > 1:
            # prefill
            key, value = repeat_kv(xk, xv, self.repeats)
        else:
            cur_pos = int(positions[-1]) + 1
            key, value = repeat_kv(
                cache_k[:bsz, :cur_pos, ...],
                cache_v[:bsz, :cur_pos, ...],
                self.repeats,
            )

        query = xq.transpose(1, 2)
        key = key.transpose(1, 2)
        value = value.transpose(1, 2)
        # scores : [bsz, n_heads, seqlen | 1, seqlen]
        scores = matmul(query, key.transpose(2, 3)) * self.scale

        if mask is not None:
            scores += mask[None, None, ...]

        scores = cast(scores, f32)
        scores = cast(softmax(scores, axis=-1), query.dtype)
        output = matmul(scores, value)  # (bs, n_local_heads, slen, head_dim)
        output = output.transpose(1, 2).view(bsz, seqlen, -1)
        return self.wo(output)


class FeedForward(Module):
    def __init__(self, args):
        super().__init__()

        self.w1 = Linear(args.dim, args.hidden_dim, bias=False)
        self.w2 = Linear(args.hidden_dim, args.dim, bias=False)
        self.w3 = Linear(args.dim, args.hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(silu(self.w1(x)) * self.w3(x))


class RMSNorm(Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = ones((dim,))

    def _norm(self, x):
        return x * (1.0 / sqrt(mean(x ** 2, axis=-1, keepdims=True) + self.eps))

    def forward(self, x):
        output = cast(self._norm(cast(x, f32)), x.dtype)
        return output * self.weight


class TransformerBlock(Module):
    def __init__(self, args):
        super().__init__()
        self.n_heads = args.n_heads
        self.dim = args.dim
        self.attention = Attention(args)
        self.feed_forward = FeedForward(args=args)
        self.attention_norm = RMSNorm(args.dim, eps=args.norm_eps)
        self.ffn_norm = RMSNorm(args.dim, eps=args.norm_eps)
        self.args = args

    def forward(self, x, freqs_cis, positions, mask):
        r = self.attention.forward(self.attention_norm(x), freqs_cis, positions, mask)
        h = x + r
        r = self.feed_forward.forward(self.ffn_norm(h))
        out = h + r
        return out


def precompute_freqs_cis(dim, end, theta):
    freqs = 1.0 / (theta ** (cast(arange(0, dim, 2)[: (dim // 2)], f32) / dim))
    t = cast(arange(end), f32)
    freqs = t[:, None] * freqs[None, :]  # torch.outer
    return cos(freqs), sin(freqs)  # torch.polar(ones, freqs) as (real, imag)


class Transformer(Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.vocab_size = args.vocab_size
        self.n_layers = args.n_layers
        assert self.vocab_size > 0

        self.tok_embeddings = Embedding(args.vocab_size, args.dim)

        self.layers = [TransformerBlock(args=args) for _ in range(args.n_layers)]

        self.norm = RMSNorm(args.dim, eps=args.norm_eps)

        self.output = Linear(args.dim, args.vocab_size, bias=False)

        theta = self.args.rope_theta or 1000000.0
        self.freqs_cis = precompute_freqs_cis(self.args.head_dim, 128_000, theta)

    def forward(self, input_ids, positions):
        h = self.tok_embeddings(input_ids)
        freqs_cis = (self.freqs_cis[0][positions], self.freqs_cis[1][positions])

        mask = None
        if input_ids.shape[1] > 1:
            seqlen = input_ids.shape[1]
            tensor = full(
                (seqlen, seqlen),
                dtype=h.dtype,
                fill_value=1,
            )
            mask = tril(tensor, diagonal=0)
            mask = triu(mask, diagonal=-self.args.max_seq_len)
            mask = log(mask)

        for layer in self.layers:
            h = layer(h, freqs_cis, positions, mask)

        return cast(self.output(self.norm(h)), f32)


if __name__ == "__main__":
    args = TransformerArgs(
        dim=32, n_layers=2, head_dim=8, hidden_dim=64, n_heads=4, n_kv_heads=2,
        norm_eps=1e-5, vocab_size=50, max_seq_len=16, max_batch_size=2,
    )
    model = Transformer(args)
    tokens = cast(random_uniform((2, 6)) * args.vocab_size, i64)
    # pre-fill
    positions = arange(0, 6)
    logits = model.forward(tokens, positions)
    assert logits.shape == (2, 6, args.vocab_size)
    logprobs = log_softmax(logits, axis=-1)
    # one decoding step
    next_token = argmax(logprobs[:, -1, :], axis=-1)
    step = model.forward(next_token[:, None], arange(6, 7))
    assert step.shape == (2, 1, args.vocab_size)
    print("mistral ok", logits.shape, step.shape)
