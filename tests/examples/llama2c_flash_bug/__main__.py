"""A forward pass of a tiny llama2.c Transformer, with and without targets."""
from fathom import *

from .config import ModelArgs
from .model import Transformer


if __name__ == "__main__":
    args = ModelArgs(n_kv_heads=2)
    model = Transformer(args)
    tokens = cast(random_uniform((2, 8)) * args.vocab_size, i64)
    targets = cast(random_uniform((2, 8)) * args.vocab_size, i64)
    logits, loss = model(tokens, targets)
    assert logits.shape == (2, 8, args.vocab_size)
    assert loss.shape == ()
    last, no_loss = model(tokens)
    assert last.shape == (2, 1, args.vocab_size)
    assert no_loss is None
    print("llama2.c (package) ok", float(loss))
