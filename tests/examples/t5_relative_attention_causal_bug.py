# expect-error at line 155: dtype-mismatch
# Planted bug: the causal (decoder) branch of _relative_position_bucket builds its zeros without the i64 dtype, so minimum meets an f32 tensor; only the decoder stack (is_decoder=True) takes that branch.
"""T5's self-attention with the relative position bias, translated from
huggingface/transformers src/transformers/models/t5/modeling_t5.py:
T5LayerNorm (the RMS norm without mean subtraction or bias),
T5DenseActDense, T5LayerFF, T5Attention with
_relative_position_bucket (exact buckets for small distances, log-spaced
ones up to max_distance, bidirectional for the encoder and causal for the
decoder) and compute_bias, T5LayerSelfAttention, T5Block and T5Stack, where
only the first block has a relative_attention_bias embedding and the
position bias it computes (plus the additive mask) is shared by every later
block.

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding / nn.Dropout
are small classes; T5Config is a dataclass with tiny sizes; the decoder's
cross-attention, the KV cache, head masks, gradient checkpointing and the
output dataclasses are left out (the decoder stack runs its causal
self-attention only); `.unsqueeze(0)` is `[None]`, `.to(torch.long)` and
`.float()` are casts, `torch.min` of two tensors is `minimum`; the log
of the large-position branch takes maximum(relative_position, 1), so the
zero distances (which the is_small branch keeps) do not evaluate log(0).
"""
import math
from dataclasses import dataclass

from fathom import *


@dataclass
class T5Config:
    vocab_size: int = 32
    d_model: int = 16
    d_kv: int = 4
    d_ff: int = 32
    num_layers: int = 2
    num_heads: int = 4
    relative_attention_num_buckets: int = 8
    relative_attention_max_distance: int = 16
    dropout_rate: float = 0.1
    layer_norm_epsilon: float = 1e-6
    is_decoder: bool = False


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.05
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, input):
        return linear(input, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim))

    def forward(self, input):
        return embedding(self.weight, input)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, input):
        return dropout(input, self.p)


class T5LayerNorm(Module):
    def __init__(self, hidden_size, eps=1e-6):
        """Construct a layernorm module in the T5 style. No bias and no
        subtraction of mean."""
        super().__init__()
        self.weight = ones((hidden_size,))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        # T5 uses a layer_norm which only scales and doesn't shift, which is
        # also known as Root Mean Square Layer Normalization.
        variance = mean(hidden_states ** 2, axis=-1, keepdims=True)
        hidden_states = hidden_states / sqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


class T5DenseActDense(Module):
    def __init__(self, config):
        super().__init__()
        self.wi = Linear(config.d_model, config.d_ff, bias=False)
        self.wo = Linear(config.d_ff, config.d_model, bias=False)
        self.dropout = Dropout(config.dropout_rate)

    def forward(self, hidden_states):
        hidden_states = self.wi(hidden_states)
        hidden_states = relu(hidden_states)
        hidden_states = self.dropout(hidden_states)
        hidden_states = self.wo(hidden_states)
        return hidden_states


class T5LayerFF(Module):
    def __init__(self, config):
        super().__init__()
        self.DenseReluDense = T5DenseActDense(config)
        self.layer_norm = T5LayerNorm(config.d_model, eps=config.layer_norm_epsilon)
        self.dropout = Dropout(config.dropout_rate)

    def forward(self, hidden_states):
        forwarded_states = self.layer_norm(hidden_states)
        forwarded_states = self.DenseReluDense(forwarded_states)
        hidden_states = hidden_states + self.dropout(forwarded_states)
        return hidden_states


class T5Attention(Module):
    def __init__(self, config, has_relative_attention_bias=False):
        super().__init__()
        self.is_decoder = config.is_decoder
        self.has_relative_attention_bias = has_relative_attention_bias
        self.relative_attention_num_buckets = config.relative_attention_num_buckets
        self.relative_attention_max_distance = config.relative_attention_max_distance
        self.d_model = config.d_model
        self.key_value_proj_dim = config.d_kv
        self.n_heads = config.num_heads
        self.dropout = config.dropout_rate
        self.inner_dim = self.n_heads * self.key_value_proj_dim

        # Mesh TensorFlow initialization to avoid scaling before softmax
        self.q = Linear(self.d_model, self.inner_dim, bias=False)
        self.k = Linear(self.d_model, self.inner_dim, bias=False)
        self.v = Linear(self.d_model, self.inner_dim, bias=False)
        self.o = Linear(self.inner_dim, self.d_model, bias=False)

        if self.has_relative_attention_bias:
            self.relative_attention_bias = Embedding(self.relative_attention_num_buckets, self.n_heads)

    @staticmethod
    def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
        """
        Adapted from Mesh Tensorflow: the relative position is the distance
        from the attending position to the attended-to position.  Small
        distances get their own buckets; larger ones share log-spaced
        buckets up to max_distance, beyond which all land in the last one.
        In the bidirectional case positive and negative positions get
        separate halves of the buckets.
        """
        relative_buckets = 0
        if bidirectional:
            num_buckets //= 2
            relative_buckets += cast(relative_position > 0, i64) * num_buckets
            relative_position = abs(relative_position)
        else:
            relative_position = -minimum(relative_position, zeros(relative_position.shape))
        # now relative_position is in the range [0, inf)

        # half of the buckets are for exact increments in positions
        max_exact = num_buckets // 2
        is_small = relative_position < max_exact

        # The other half of the buckets are for logarithmically bigger bins in
        # positions up to max_distance (a position of 0 takes the is_small branch)
        relative_position_if_large = max_exact + cast(
            log(cast(maximum(relative_position, 1), f32) / max_exact)
            / math.log(max_distance / max_exact)
            * (num_buckets - max_exact),
            i64,
        )
        relative_position_if_large = minimum(
            relative_position_if_large, full(relative_position_if_large.shape, num_buckets - 1, dtype=i64)
        )

        relative_buckets += where(is_small, relative_position, relative_position_if_large)
        return relative_buckets

    def compute_bias(self, query_length, key_length):
        """Compute binned relative position bias"""
        context_position = arange(query_length)[:, None]
        memory_position = arange(key_length)[None, :]
        relative_position = memory_position - context_position  # shape (query_length, key_length)
        relative_position_bucket = self._relative_position_bucket(
            relative_position,  # shape (query_length, key_length)
            bidirectional=(not self.is_decoder),
            num_buckets=self.relative_attention_num_buckets,
            max_distance=self.relative_attention_max_distance,
        )
        values = self.relative_attention_bias(relative_position_bucket)  # shape (query_length, key_length, num_heads)
        values = values.permute(2, 0, 1)[None]  # shape (1, num_heads, query_length, key_length)
        return values

    def forward(self, hidden_states, mask=None, position_bias=None):
        """Self-attention on hidden_states (batch_size, seq_length, dim)."""
        batch_size, seq_length = hidden_states.shape[:2]
        real_seq_length = seq_length
        key_length = seq_length

        def shape(states):
            """projection"""
            return states.view(batch_size, -1, self.n_heads, self.key_value_proj_dim).transpose(1, 2)

        def unshape(states):
            """reshape"""
            return states.transpose(1, 2).view(batch_size, -1, self.inner_dim)

        # get query, key and value states: (batch_size, n_heads, seq_length, dim_per_head)
        query_states = shape(self.q(hidden_states))
        key_states = shape(self.k(hidden_states))
        value_states = shape(self.v(hidden_states))

        # compute scores, equivalent of torch.einsum("bnqd,bnkd->bnqk")
        scores = matmul(query_states, key_states.transpose(3, 2))

        if position_bias is None:
            if not self.has_relative_attention_bias:
                position_bias = zeros((1, self.n_heads, real_seq_length, key_length))
            else:
                position_bias = self.compute_bias(real_seq_length, key_length)

            if mask is not None:
                position_bias = position_bias + mask  # (batch_size, n_heads, seq_length, key_length)

        scores = scores + position_bias
        attn_weights = softmax(scores, axis=-1)  # (batch_size, n_heads, seq_length, key_length)
        attn_weights = dropout(attn_weights, self.dropout)

        attn_output = unshape(matmul(attn_weights, value_states))  # (batch_size, seq_length, dim)
        attn_output = self.o(attn_output)

        outputs = (attn_output, position_bias)
        return outputs


class T5LayerSelfAttention(Module):
    def __init__(self, config, has_relative_attention_bias=False):
        super().__init__()
        self.SelfAttention = T5Attention(config, has_relative_attention_bias=has_relative_attention_bias)
        self.layer_norm = T5LayerNorm(config.d_model, eps=config.layer_norm_epsilon)
        self.dropout = Dropout(config.dropout_rate)

    def forward(self, hidden_states, attention_mask=None, position_bias=None):
        normed_hidden_states = self.layer_norm(hidden_states)
        attention_output = self.SelfAttention(normed_hidden_states, mask=attention_mask,
                                              position_bias=position_bias)
        hidden_states = hidden_states + self.dropout(attention_output[0])
        outputs = (hidden_states,) + attention_output[1:]  # add attentions if we output them
        return outputs


class T5Block(Module):
    def __init__(self, config, has_relative_attention_bias=False):
        super().__init__()
        self.is_decoder = config.is_decoder
        self.layer = [T5LayerSelfAttention(config, has_relative_attention_bias=has_relative_attention_bias),
                      T5LayerFF(config)]

    def forward(self, hidden_states, attention_mask=None, position_bias=None):
        self_attention_outputs = self.layer[0](hidden_states, attention_mask=attention_mask,
                                               position_bias=position_bias)
        hidden_states = self_attention_outputs[0]
        attention_outputs = self_attention_outputs[1:]  # Keep self-attention outputs and relative position weights

        # Apply Feed Forward layer
        hidden_states = self.layer[-1](hidden_states)
        return (hidden_states,) + attention_outputs


class T5Stack(Module):
    def __init__(self, config, embed_tokens=None):
        super().__init__()
        self.embed_tokens = embed_tokens
        self.is_decoder = config.is_decoder

        self.block = [T5Block(config, has_relative_attention_bias=bool(i == 0))
                      for i in range(config.num_layers)]
        self.final_layer_norm = T5LayerNorm(config.d_model, eps=config.layer_norm_epsilon)
        self.dropout = Dropout(config.dropout_rate)

    def get_extended_attention_mask(self, attention_mask, input_shape):
        """(batch, seq) to an additive (batch, 1, seq or 1, seq) mask, causal
        for the decoder."""
        if self.is_decoder:
            batch_size, seq_length = input_shape
            seq_ids = arange(seq_length)
            causal_mask = seq_ids[None, None, :] <= seq_ids[None, :, None]
            extended_attention_mask = cast(causal_mask[:, None, :, :], i64) * attention_mask[:, None, None, :]
        else:
            extended_attention_mask = attention_mask[:, None, None, :]
        extended_attention_mask = cast(extended_attention_mask, f32)
        return (1.0 - extended_attention_mask) * -3.4028234663852886e38

    def forward(self, input_ids, attention_mask=None):
        input_shape = input_ids.shape
        inputs_embeds = self.embed_tokens(input_ids)
        batch_size, seq_length = input_shape

        if attention_mask is None:
            attention_mask = ones((batch_size, seq_length), dtype=i64)
        extended_attention_mask = self.get_extended_attention_mask(attention_mask, input_shape)

        position_bias = None
        hidden_states = self.dropout(inputs_embeds)

        for i, layer_module in enumerate(self.block):
            layer_outputs = layer_module(hidden_states, attention_mask=extended_attention_mask,
                                         position_bias=position_bias)
            hidden_states = layer_outputs[0]

            # We share the position biases between the layers - the first
            # layer stores them
            position_bias = layer_outputs[1]

        hidden_states = self.final_layer_norm(hidden_states)
        hidden_states = self.dropout(hidden_states)
        return hidden_states, position_bias


if __name__ == "__main__":
    batch, seq_len = 2, 10
    shared = Embedding(32, 16)
    encoder = T5Stack(T5Config(), shared)
    decoder = T5Stack(T5Config(is_decoder=True), shared)
    input_ids = cast(random_uniform((batch, seq_len)) * 32, i64)
    attention_mask = cast(arange(seq_len)[None, :] < full((batch, 1), seq_len - 2, dtype=i64), i64)
    enc_out, enc_bias = encoder(input_ids, attention_mask=attention_mask)
    dec_out, dec_bias = decoder(input_ids)
    assert enc_out.shape == (batch, seq_len, 16)
    assert dec_out.shape == (batch, seq_len, 16)
    assert enc_bias.shape == (batch, 4, seq_len, seq_len)

    buckets = T5Attention._relative_position_bucket(arange(-20, 21), num_buckets=8, max_distance=16)
    assert int(buckets[0]) == 3 and int(buckets[20]) == 0 and int(buckets[40]) == 7
    causal = T5Attention._relative_position_bucket(arange(-20, 21), bidirectional=False,
                                                   num_buckets=8, max_distance=16)
    assert int(causal[0]) == 7 and int(causal[40]) == 0
    print("t5 ok", float(mean(enc_out)), float(mean(dec_out)))
