"""Planted bug: apply_rotary_emb mixes the query heads into the rotated keys (xq_i for xk_i), which only grouped-query attention's shapes reveal (4 query heads, 2 key heads); and a typo'd attribute (self.nrom) in Transformer.forward.

The Llama 2 model of karpathy/llama2.c model.py as a package in its
original class form: config.py (the ModelArgs dataclass), layers.py
(RMSNorm, precompute_freqs_cis, reshape_for_broadcast, apply_rotary_emb,
repeat_kv, Attention with the `flash` switch and grouped-query attention,
FeedForward with SwiGLU), model.py (TransformerBlock and Transformer with
its list of layers, weight tying and the loss) and __main__.py (a forward
pass with targets and one without, at tiny sizes with n_kv_heads < n_heads
so repeat_kv really repeats).  `python -m llama2c` (from tests/models) runs
it; `fathom check tests/models/llama2c` checks it as one program.

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding / nn.Dropout
are small classes here; `x.float()` / `type_as` are casts to f32;
torch.rsqrt is 1 / sqrt; torch.outer is a broadcast product; `unbind(-1)`
is two index expressions; `expand` is broadcast_to;
scaled_dot_product_attention (the flash path) is written out with a causal
mask; `h[:, [-1], :]` is the slice `h[:, -1:, :]`; `self.last_loss` (set in
forward, outside the DSL: an instance is immutable once built) is returned
beside the logits; _init_weights' normal init is done by the constructors.
"""
