"""Run both tiny Gemma configs on a padded batch of random tokens."""
from fathom import *

from .config import gemma2_tiny, gemma_tiny
from .transformer import Transformer, next_token_loss

if __name__ == "__main__":
    batch, seq_len = 2, 6
    for config in (gemma_tiny(), gemma2_tiny()):
        model = Transformer(config)
        tokens = cast(random_uniform((batch, seq_len)) * config.num_embed, i64)
        input_mask = arange(seq_len)[None, :] < full((batch, 1), seq_len - 1, dtype=i64)
        loss = next_token_loss(model, tokens, input_mask)
        assert loss.shape == ()
        print("gemma ok", config.num_kv_heads, float(loss))
