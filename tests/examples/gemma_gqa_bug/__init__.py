"""Planted bug: the kv projection is built with num_heads key/value heads
instead of num_kv_heads, so the grouped-query einsum of the Gemma-2
config (4 query heads in 2 groups) meets 4 key heads; the multi-head config
is unaffected: only that caller's config reveals it.

Gemma's transformer as a package of several modules, translated from
google-deepmind/gemma (gemma/gm/nn/_modules.py, _layers.py, _positional_embeddings.py
and _transformer.py of the Flax implementation; the older gemma/modules.py,
layers.py, positional_embeddings.py and transformer.py have the same
blocks): RMSNorm with its (1 + scale) weight, the Einsum parameter layers,
rotary embeddings (apply_rope), the Embedder with its sqrt(embed_dim)
input scaling and tied decoding, Attention with one fused qkv einsum when
num_kv_heads == num_heads and separate q / kv einsums with grouped-query
attention otherwise, attention-logit soft-capping, the gated-GELU
FeedForward, Block with the optional post-attention and post-FFW norms,
and Transformer with the final logit soft-cap, the causal mask and the
positions built from the input mask.  `python -m gemma` (run from
tests/models, python/ on the path) runs __main__.py.

Changed: Flax's nn.Module / self.param become fathom Module classes whose
__init__ draws the parameters; jax.nn.gelu is fathom's gelu; the KV cache,
sliding-window attention and the sampler are left out; the
TransformerConfig has tiny sizes (two configs: multi-head and grouped-query).
"""
