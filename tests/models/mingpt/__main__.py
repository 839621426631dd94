"""Build a tiny GPT, compute its loss on random tokens and generate."""
from fathom import *

from .config import GPTConfig
from .model import GPT

if __name__ == "__main__":
    config = GPTConfig(vocab_size=16, block_size=8)
    model = GPT(config)
    idx = cast(random_uniform((2, 6)) * config.vocab_size, i64)
    logits, loss = model(idx, idx)
    assert logits.shape == (2, 6, config.vocab_size) and loss.shape == ()
    out = model.generate(idx, 4)
    assert out.shape == (2, 10)
    assert model.generate(idx, 2, top_k=3).shape == (2, 8)
    print("mingpt (package) ok", float(loss))
