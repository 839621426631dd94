# expect-error at line 134: shape-mismatch
# Planted bug: Attention builds to_kv on the query's width; the cross-attention's 12-wide context (5 channels + 7 Fourier features) meets the 16-wide weight.
"""Perceiver (Jaegle et al. 2021), translated from lucidrains/perceiver-pytorch
perceiver_pytorch/perceiver_pytorch.py: the exists/default helpers,
fourier_encode, PreNorm with its optional context norm, GEGLU, FeedForward,
Attention (cross-attention when given a context, self-attention otherwise,
with an optional mask), and Perceiver with its learned latents, its list of
(cross-attention, cross feed-forward, self-attention blocks) layers and the
mean-pooled classifier head.

Changed: nn.Module is fathom.Module and nn.Linear / nn.LayerNorm /
nn.Dropout are small classes here; einops' rearrange and repeat are
reshape / permute / broadcast_to; torch.linspace is written with arange;
the input has one axis (input_axis=1: a sequence of feature vectors, so
`b, *axis, _ = data.shape` is `b, n, _ = data.shape`); PreNorm's **kwargs
are an explicit optional context; weight tying (cache_fn) is left out;
the sizes are small so the file runs fast.
"""
import math

from fathom import *


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


def linspace(start, end, steps):
    return start + arange(steps) * ((end - start) / (steps - 1))


def fourier_encode(x, max_freq, num_bands=4):
    x = expand_dims(x, -1)
    orig_x = x
    scales = cast(linspace(1.0, max_freq / 2, num_bands), x.dtype)
    x = x * scales * math.pi
    x = concat([sin(x), cos(x)], axis=-1)
    x = concat((x, orig_x), axis=-1)
    return x


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * (1.0 / math.sqrt(in_features))
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LayerNorm(Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = ones((dim,))
        self.beta = zeros((dim,))

    def forward(self, x):
        return layer_norm(x, self.gamma, self.beta)


class Dropout(Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p) if self.p > 0.0 else x


class PreNorm(Module):
    def __init__(self, dim, fn, context_dim=None):
        super().__init__()
        self.fn = fn
        self.norm = LayerNorm(dim)
        self.norm_context = LayerNorm(context_dim) if exists(context_dim) else None

    def forward(self, x, context=None, mask=None):
        x = self.norm(x)
        if exists(self.norm_context):
            normed_context = self.norm_context(context)
            return self.fn(x, context=normed_context, mask=mask)
        return self.fn(x)


class GEGLU(Module):
    def forward(self, x):
        x, gates = x.chunk(2, -1)
        return x * gelu(gates)


class FeedForward(Module):
    def __init__(self, dim, mult=4, dropout=0.0):
        super().__init__()
        self.proj_in = Linear(dim, dim * mult * 2)
        self.act = GEGLU()
        self.proj_out = Linear(dim * mult, dim)
        self.drop = Dropout(dropout)

    def forward(self, x):
        return self.drop(self.proj_out(self.act(self.proj_in(x))))


class Attention(Module):
    def __init__(self, query_dim, context_dim=None, heads=8, dim_head=64, dropout=0.0):
        super().__init__()
        inner_dim = dim_head * heads
        context_dim = default(context_dim, query_dim)

        self.scale = dim_head ** -0.5
        self.heads = heads

        self.to_q = Linear(query_dim, inner_dim, bias=False)
        self.to_kv = Linear(query_dim, inner_dim * 2, bias=False)

        self.dropout = Dropout(dropout)
        self.to_out = Linear(inner_dim, query_dim)

    def split_heads(self, t):
        # rearrange(t, 'b n (h d) -> (b h) n d', h=h)
        b, n, hd = t.shape
        h = self.heads
        return t.view(b, n, h, hd // h).permute(0, 2, 1, 3).reshape((b * h, n, hd // h))

    def forward(self, x, context=None, mask=None):
        h = self.heads

        q = self.to_q(x)
        context = default(context, x)
        k, v = self.to_kv(context).chunk(2, -1)

        q, k, v = [self.split_heads(t) for t in (q, k, v)]

        sim = einsum('bid,bjd->bij', q, k) * self.scale

        if exists(mask):
            # rearrange(mask, 'b ... -> b (...)') then repeat 'b j -> (b h) () j'
            mask = reshape(mask, (mask.shape[0], -1))
            mask = reshape(broadcast_to(mask[:, None, :], (mask.shape[0], h, mask.shape[1])),
                           (mask.shape[0] * h, 1, mask.shape[1]))
            sim = sim.masked_fill(~mask, -3.4e38)

        # attention, what we cannot get enough of
        attn = softmax(sim, axis=-1)
        attn = self.dropout(attn)

        out = einsum('bij,bjd->bid', attn, v)
        # rearrange(out, '(b h) n d -> b n (h d)', h=h)
        bh, n, d = out.shape
        out = out.view(bh // h, h, n, d).permute(0, 2, 1, 3).reshape((bh // h, n, h * d))
        return self.to_out(out)


class Perceiver(Module):
    def __init__(
        self,
        num_freq_bands,
        depth,
        max_freq,
        input_channels=3,
        input_axis=1,
        num_latents=512,
        latent_dim=512,
        cross_heads=1,
        latent_heads=8,
        cross_dim_head=64,
        latent_dim_head=64,
        num_classes=1000,
        attn_dropout=0.0,
        ff_dropout=0.0,
        fourier_encode_data=True,
        self_per_cross_attn=1,
        final_classifier_head=True,
    ):
        super().__init__()
        self.input_axis = input_axis
        self.max_freq = max_freq
        self.num_freq_bands = num_freq_bands

        self.fourier_encode_data = fourier_encode_data
        fourier_channels = (input_axis * ((num_freq_bands * 2) + 1)) if fourier_encode_data else 0
        input_dim = fourier_channels + input_channels

        self.latents = random_normal((num_latents, latent_dim))

        self.layers = [
            (
                PreNorm(latent_dim, Attention(latent_dim, input_dim, heads=cross_heads,
                                              dim_head=cross_dim_head, dropout=attn_dropout),
                        context_dim=input_dim),
                PreNorm(latent_dim, FeedForward(latent_dim, dropout=ff_dropout)),
                [
                    (
                        PreNorm(latent_dim, Attention(latent_dim, heads=latent_heads,
                                                      dim_head=latent_dim_head, dropout=attn_dropout)),
                        PreNorm(latent_dim, FeedForward(latent_dim, dropout=ff_dropout)),
                    )
                    for _ in range(self_per_cross_attn)
                ],
            )
            for _ in range(depth)
        ]

        self.final_classifier_head = final_classifier_head
        if final_classifier_head:
            self.head_norm = LayerNorm(latent_dim)
            self.head = Linear(latent_dim, num_classes)

    def to_logits(self, x):
        if not self.final_classifier_head:
            return x
        # Reduce('b n d -> b d', 'mean'), LayerNorm, Linear
        return self.head(self.head_norm(mean(x, axis=1)))

    def forward(self, data, mask=None, return_embeddings=False):
        b, n, _ = data.shape
        assert data.ndim - 2 == self.input_axis, 'input data must have the right number of axis'

        if self.fourier_encode_data:
            # calculate fourier encoded positions in the range of [-1, 1], for all axis
            pos = linspace(-1.0, 1.0, n)
            enc_pos = fourier_encode(pos, self.max_freq, self.num_freq_bands)
            enc_pos = reshape(enc_pos, (n, -1))
            enc_pos = broadcast_to(enc_pos[None], (b, n, enc_pos.shape[-1]))
            data = concat((data, cast(enc_pos, data.dtype)), axis=-1)

        x = broadcast_to(self.latents[None], (b,) + self.latents.shape)

        # layers
        for cross_attn, cross_ff, self_attns in self.layers:
            x = cross_attn(x, context=data, mask=mask) + x
            x = cross_ff(x) + x

            for self_attn, self_ff in self_attns:
                x = self_attn(x) + x
                x = self_ff(x) + x

        # allow for fetching embeddings
        if return_embeddings:
            return x

        # to logits
        return self.to_logits(x)


if __name__ == "__main__":
    model = Perceiver(
        num_freq_bands=3,
        depth=2,
        max_freq=10.0,
        input_channels=5,
        num_latents=6,
        latent_dim=16,
        cross_heads=1,
        latent_heads=2,
        cross_dim_head=8,
        latent_dim_head=8,
        num_classes=4,
        attn_dropout=0.0,
        ff_dropout=0.1,
        self_per_cross_attn=2,
    )
    data = random_normal((2, 7, 5))
    mask = random_uniform((2, 7)) > 0.2
    logits = model(data, mask=mask)
    assert logits.shape == (2, 4)
    emb = model(data, return_embeddings=True)
    assert emb.shape == (2, 6, 16)
    print("perceiver ok", logits.shape)
