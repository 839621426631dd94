"""The Transformer: embedder, blocks, final norm, soft-capped logits."""
from fathom import *

from .layers import RMSNorm
from .modules import Block, Embedder


def make_causal_attn_mask(input_mask):
    """(B, L) input mask to a (B, L, L) causal attention mask."""
    seq_len = input_mask.shape[-1]
    attn_mask = input_mask[..., None, :]
    causal_mask = tril(ones((seq_len, seq_len), dtype=bool_))
    return attn_mask & causal_mask[None, ...]


def build_positions_from_mask(input_mask):
    """Positions counted over the non-padded tokens only."""
    positions = cumsum(cast(input_mask, i64), axis=-1)
    # Make the positions 0-indexed.
    return positions - cast(positions >= 1, i64)


class Transformer(Module):
    """Gemma transformer."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embedder = Embedder(config.num_embed, config.embed_dim)
        self.blocks = [Block(config) for _ in range(config.num_layers)]
        self.final_norm = RMSNorm(config.embed_dim)

    def forward(self, last_tokens, positions, attention_mask):
        x = self.embedder.encode(last_tokens)
        for block in self.blocks:
            x = block(x, positions, attention_mask)
        x = self.final_norm(x)
        logits = self.embedder.decode(x)

        if self.config.final_logit_softcap is not None:
            logits = logits / self.config.final_logit_softcap
            logits = tanh(logits) * self.config.final_logit_softcap
        return logits


def next_token_loss(model, tokens, input_mask):
    """Cross-entropy of each next token, averaged over the real ones."""
    positions = build_positions_from_mask(input_mask)
    attn_mask = make_causal_attn_mask(input_mask)
    logits = model(tokens, positions, attn_mask)
    log_probs = log_softmax(logits[:, :-1], axis=-1)
    targets = one_hot(tokens[:, 1:], model.config.num_embed)
    token_loss = -reduce_sum(log_probs * targets, axis=-1)
    weights = cast(input_mask[:, 1:], f32)
    return reduce_sum(token_loss * weights) / reduce_sum(weights)
