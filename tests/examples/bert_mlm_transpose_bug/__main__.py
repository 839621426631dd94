"""Mask a few tokens of a padded random batch and run BertForMaskedLM."""
from fathom import *

from .config import bert_tiny
from .mlm import BertForMaskedLM

MASK_TOKEN_ID = 3

if __name__ == "__main__":
    config = bert_tiny()
    model = BertForMaskedLM(config)
    batch, seq_len = 2, 8
    input_ids = cast(random_uniform((batch, seq_len)) * config.vocab_size, i64)
    token_type_ids = cast(arange(seq_len)[None, :] >= seq_len // 2, i64) * ones((batch, 1), dtype=i64)
    attention_mask = cast(arange(seq_len)[None, :] < full((batch, 1), seq_len - 1, dtype=i64), i64)
    masked = random_uniform((batch, seq_len)) < 0.3
    labels = where(masked, input_ids, -100)
    masked_ids = where(masked, MASK_TOKEN_ID, input_ids)
    loss, scores = model(masked_ids, attention_mask=attention_mask,
                         token_type_ids=token_type_ids, labels=labels)
    assert scores.shape == (batch, seq_len, config.vocab_size)
    assert loss.shape == ()
    print("bert_mlm ok", float(loss))
