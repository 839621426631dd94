# expect-error at line 152: shape-mismatch
# Planted bug: the model collects each layer's hidden states instead of its router logits for the auxiliary loss; only the caller's values show it, in load_balancing_loss_func.
"""A Mixtral sparse mixture-of-experts layer, translated from huggingface
transformers src/transformers/models/mixtral/modeling_mixtral.py:
MixtralRMSNorm, MixtralBlockSparseTop2MLP (w2(silu(w1 x) * w3 x)),
MixtralSparseMoeBlock (router gate, softmax, top-k, renormalised routing
weights, router jitter noise while training) and load_balancing_loss_func
(the Switch Transformer auxiliary loss), with a two-layer stack of
pre-norm MoE blocks standing in for MixtralDecoderLayer / MixtralModel
(attention left out) that collects each layer's router logits.

Changed: MixtralConfig is a small dataclass; nn.Linear(bias=False) is a
class of its own; the token dispatch (torch.where over the expert mask,
index_add_) has data-dependent shapes, so every expert runs on every
token and its output is weighted by the routing weight the token gives
that expert (0 when the expert is not among its top k): the same sum;
`hidden_states *= empty_like(...).uniform_(lo, hi)` is
lo + (hi - lo) * random_uniform; the loss ignores attention masks.
"""
from dataclasses import dataclass

from fathom import *


@dataclass
class MixtralConfig:
    hidden_size: int = 32
    intermediate_size: int = 48
    num_hidden_layers: int = 2
    num_local_experts: int = 4
    num_experts_per_tok: int = 2
    router_jitter_noise: float = 0.01
    rms_norm_eps: float = 1e-5
    router_aux_loss_coef: float = 0.02


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * (in_features ** -0.5)

    def forward(self, x):
        return x @ self.weight.T


class MixtralRMSNorm(Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = ones((hidden_size,))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = mean(hidden_states ** 2, axis=-1, keepdims=True)
        hidden_states = hidden_states / sqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


class MixtralBlockSparseTop2MLP(Module):
    def __init__(self, config):
        super().__init__()
        self.ffn_dim = config.intermediate_size
        self.hidden_dim = config.hidden_size

        self.w1 = Linear(self.hidden_dim, self.ffn_dim)
        self.w2 = Linear(self.ffn_dim, self.hidden_dim)
        self.w3 = Linear(self.hidden_dim, self.ffn_dim)

    def forward(self, hidden_states):
        current_hidden_states = silu(self.w1(hidden_states)) * self.w3(hidden_states)
        current_hidden_states = self.w2(current_hidden_states)
        return current_hidden_states


class MixtralSparseMoeBlock(Module):
    def __init__(self, config, training=False):
        super().__init__()
        self.hidden_dim = config.hidden_size
        self.ffn_dim = config.intermediate_size
        self.num_experts = config.num_local_experts
        self.top_k = config.num_experts_per_tok

        # gating
        self.gate = Linear(self.hidden_dim, self.num_experts)

        self.experts = [MixtralBlockSparseTop2MLP(config) for _ in range(self.num_experts)]

        # Jitter parameters
        self.jitter_noise = config.router_jitter_noise
        self.training = training

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        if self.training and self.jitter_noise > 0:
            lo = 1.0 - self.jitter_noise
            hi = 1.0 + self.jitter_noise
            hidden_states *= lo + (hi - lo) * random_uniform(hidden_states.shape)
        hidden_states = hidden_states.view(-1, hidden_dim)
        # router_logits: (batch * sequence_length, n_experts)
        router_logits = self.gate(hidden_states)

        routing_weights = softmax(router_logits, axis=1)
        routing_weights, selected_experts = topk(routing_weights, self.top_k, axis=-1)
        routing_weights /= reduce_sum(routing_weights, axis=-1, keepdims=True)

        final_hidden_states = zeros((batch_size * sequence_length, hidden_dim))

        # One hot encode the selected experts: (tokens, top_k, n_experts)
        expert_mask = one_hot(selected_experts, self.num_experts)

        # Loop over all available experts in the model
        for expert_idx, expert_layer in enumerate(self.experts):
            # the weight each token gives this expert (0 when not selected)
            token_weight = reduce_sum(routing_weights * expert_mask[:, :, expert_idx], axis=-1)
            current_hidden_states = expert_layer(hidden_states) * token_weight[:, None]
            final_hidden_states = final_hidden_states + current_hidden_states
        final_hidden_states = final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)
        return final_hidden_states, router_logits


class MixtralMoeLayer(Module):
    """A MixtralDecoderLayer without its attention: pre-norm MoE, residual."""

    def __init__(self, config, training=False):
        super().__init__()
        self.post_attention_layernorm = MixtralRMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.block_sparse_moe = MixtralSparseMoeBlock(config, training)

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states, router_logits = self.block_sparse_moe(hidden_states)
        hidden_states = residual + hidden_states
        return hidden_states, router_logits


def load_balancing_loss_func(gate_logits, num_experts, top_k=2):
    """Switch Transformer's auxiliary loss (equations 4-6), over every layer's router logits."""
    concatenated_gate_logits = concat(gate_logits, axis=0)

    routing_weights = softmax(concatenated_gate_logits, axis=-1)

    _, selected_experts = topk(routing_weights, top_k, axis=-1)

    expert_mask = one_hot(selected_experts, num_experts)

    # Compute the percentage of tokens routed to each experts
    tokens_per_expert = mean(expert_mask, axis=0)

    # Compute the average probability of routing to these experts
    router_prob_per_expert = mean(routing_weights, axis=0)

    overall_loss = reduce_sum(tokens_per_expert * expand_dims(router_prob_per_expert, 0))
    return overall_loss * num_experts


class MixtralMoeModel(Module):
    def __init__(self, config, training=False):
        super().__init__()
        self.config = config
        self.layers = [MixtralMoeLayer(config, training) for _ in range(config.num_hidden_layers)]
        self.norm = MixtralRMSNorm(config.hidden_size, eps=config.rms_norm_eps)

    def forward(self, inputs_embeds):
        hidden_states = inputs_embeds
        all_router_logits = []
        for decoder_layer in self.layers:
            hidden_states, router_logits = decoder_layer(hidden_states)
            all_router_logits.append(hidden_states)
        hidden_states = self.norm(hidden_states)
        aux_loss = load_balancing_loss_func(
            all_router_logits, self.config.num_local_experts, self.config.num_experts_per_tok)
        return hidden_states, self.config.router_aux_loss_coef * aux_loss


if __name__ == "__main__":
    config = MixtralConfig()
    model = MixtralMoeModel(config)
    x = random_normal((2, 5, config.hidden_size))
    out, aux = model(x)
    print(out.shape, float(aux))
