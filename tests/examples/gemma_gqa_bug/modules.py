"""Transformer sub-modules: Embedder, Attention, FeedForward and Block."""
import math

from fathom import *

from .layers import Einsum, RMSNorm, apply_rope

K_MASK = -2.3819763e38  # Set to a large negative number.


class Embedder(Module):
    """Embedder module: token ids to scaled embeddings, and back to logits."""

    def __init__(self, vocab_size, embed_dim):
        super().__init__()
        self.embed_dim = embed_dim
        self.input_embedding_table = random_normal((vocab_size, embed_dim)) * 0.1

    def encode(self, x):
        x = self.input_embedding_table[(x,)]
        x = x * math.sqrt(self.embed_dim)
        return x

    def decode(self, x):
        return x @ self.input_embedding_table.T


class Attention(Module):
    """Attention module."""

    def __init__(self, num_heads, num_kv_heads, features, head_dim, query_scale,
                 attn_logits_soft_cap=None, max_wavelength=10_000):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.query_scale = query_scale
        self.attn_logits_soft_cap = attn_logits_soft_cap
        self.max_wavelength = max_wavelength
        self.attn_vec_einsum = Einsum((num_heads, head_dim, features))
        if self.use_qkv_einsum:
            self.qkv_einsum = Einsum((3, num_heads, features, head_dim))
        else:
            self.q_einsum = Einsum((num_heads, features, head_dim))
            self.kv_einsum = Einsum((2, num_heads, features, head_dim))

    @property
    def use_qkv_einsum(self):
        return self.num_kv_heads == self.num_heads

    @property
    def use_gqa(self):
        return self.num_kv_heads != self.num_heads and self.num_kv_heads > 1

    def forward(self, x, segment_pos, attn_mask):
        if self.use_qkv_einsum:
            query_proj, key_proj, value_proj = self.qkv_einsum("BTD,SNDH->SBTNH", x)
        else:
            query_proj = self.q_einsum("BTD,NDH->BTNH", x)
            key_proj, value_proj = self.kv_einsum("BSD,CKDH->CBSKH", x)

        query_proj = apply_rope(query_proj, segment_pos, max_wavelength=self.max_wavelength)
        query_scaled = query_proj * self.query_scale
        key_proj = apply_rope(key_proj, segment_pos, max_wavelength=self.max_wavelength)

        if self.use_gqa:
            # Reshape matrices to enable einsums over groups.
            b, t, kg, h = query_scaled.shape
            query_scaled = query_scaled.reshape((b, t, self.num_kv_heads, int(kg / self.num_kv_heads), h))
            logits = einsum("BTKGH,BSKH->BTKGS", query_scaled, key_proj)  # expect-error: shape-mismatch
            b, t, k, g, s = logits.shape
            logits = logits.reshape((b, t, k * g, s))
        else:
            logits = einsum("BTNH,BSNH->BTNS", query_scaled, key_proj)

        if self.attn_logits_soft_cap is not None:
            logits = tanh(logits / self.attn_logits_soft_cap)
            logits = logits * self.attn_logits_soft_cap

        padded_logits = where(expand_dims(attn_mask, -2), logits, K_MASK)
        probs = softmax(padded_logits, axis=-1)

        if self.use_gqa:
            b, t, kg, h = probs.shape
            probs = probs.reshape((b, t, self.num_kv_heads, int(kg / self.num_kv_heads), h))
            encoded = einsum("BTKGS,BSKH->BTKGH", probs, value_proj)
            b, t, k, g, h = encoded.shape
            encoded = encoded.reshape((b, t, k * g, h))
        else:
            encoded = einsum("BTNS,BSNH->BTNH", probs, value_proj)

        attn_output = self.attn_vec_einsum("BTNH,NHD->BTD", encoded)
        return attn_output


class FeedForward(Module):
    """Feed forward module: a GELU-gated hidden layer."""

    def __init__(self, features, hidden_dim):
        super().__init__()
        self.gating_einsum = random_normal((2, features, hidden_dim)) * 0.1
        self.linear = random_normal((hidden_dim, features)) * 0.1

    def forward(self, x):
        ff_gate = x @ self.gating_einsum[0]
        gate_value = gelu(ff_gate)
        ff1 = x @ self.gating_einsum[1]
        activations = gate_value * ff1
        return activations @ self.linear


class Block(Module):
    """Transformer block."""

    def __init__(self, config):
        super().__init__()
        self.pre_attention_norm = RMSNorm(config.embed_dim)
        self.attn = Attention(config.num_heads, config.num_kv_heads, config.embed_dim,
                              config.head_dim, config.query_scale(),
                              attn_logits_soft_cap=config.attn_logits_soft_cap,
                              max_wavelength=config.max_wavelength)
        self.use_post_attn_norm = config.use_post_attn_norm
        if self.use_post_attn_norm:
            self.post_attention_norm = RMSNorm(config.embed_dim)
        self.pre_ffw_norm = RMSNorm(config.embed_dim)
        self.mlp = FeedForward(config.embed_dim, config.hidden_dim)
        self.use_post_ffw_norm = config.use_post_ffw_norm
        if self.use_post_ffw_norm:
            self.post_ffw_norm = RMSNorm(config.embed_dim)

    def forward(self, x, segment_pos, attn_mask):
        inputs_normalized = self.pre_attention_norm(x)
        attn_output = self.attn(inputs_normalized, segment_pos, attn_mask)
        if self.use_post_attn_norm:
            attn_output = self.post_attention_norm(attn_output)
        attn_output = attn_output + x

        outputs = self.pre_ffw_norm(attn_output)
        outputs = self.mlp(outputs)
        if self.use_post_ffw_norm:
            outputs = self.post_ffw_norm(outputs)
        outputs = outputs + attn_output
        return outputs
