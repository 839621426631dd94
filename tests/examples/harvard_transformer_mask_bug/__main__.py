"""Inference with an untrained model: greedy decoding of a 10-token source."""
from fathom import *

from .config import ModelConfig
from .decode import greedy_decode, subsequent_mask
from .model import make_model

if __name__ == "__main__":
    cfg = ModelConfig()
    model = make_model(cfg.src_vocab, cfg.tgt_vocab, cfg.N, cfg.d_model, cfg.d_ff, cfg.h, cfg.dropout)
    src = reshape(arange(1, 11), (1, 10))
    src_mask = ones((1, 1, 10))
    ys = greedy_decode(model, src, src_mask, 6, 0)
    assert ys.shape == (1, 6)
    tgt = ys[:, :-1]
    out = model(src, tgt, src_mask, subsequent_mask(tgt.shape[1]))
    assert out.shape == (1, 5, cfg.d_model)
    print("annotated transformer (package) ok", ys)
