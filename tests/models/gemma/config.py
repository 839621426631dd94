"""TransformerConfig, the dataclass the model is built from."""
from dataclasses import dataclass


@dataclass
class TransformerConfig:
    num_layers: int = 2
    num_embed: int = 32
    embed_dim: int = 16
    hidden_dim: int = 24
    num_heads: int = 4
    head_dim: int = 8
    num_kv_heads: int = 1
    final_logit_softcap: float = None
    attn_logits_soft_cap: float = None
    use_post_attn_norm: bool = False
    use_post_ffw_norm: bool = False
    query_pre_attn_scalar: float = None
    max_wavelength: int = 10_000

    def query_scale(self):
        if self.query_pre_attn_scalar is not None:
            return self.query_pre_attn_scalar
        return self.head_dim ** -0.5


def gemma_tiny():
    """Gemma-1 style: multi-head attention, no soft-caps."""
    return TransformerConfig(num_kv_heads=4)


def gemma2_tiny():
    """Gemma-2 style: grouped-query attention, soft-caps, post norms."""
    return TransformerConfig(
        num_kv_heads=2,
        final_logit_softcap=30.0,
        attn_logits_soft_cap=50.0,
        use_post_attn_norm=True,
        use_post_ffw_norm=True,
        query_pre_attn_scalar=8.0 ** -0.5,
    )
