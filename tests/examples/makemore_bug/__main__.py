"""Planted bug: the sampling branch (pruned: the driver never passes
do_sample=True) takes the arg-max over axis 2 of the 2-d probabilities.

Build each makemore model on a tiny vocabulary, compute its loss on
random words and sample a few characters greedily."""
from fathom import *

from .config import ModelConfig
from .models import MLP, RNN, BoW, Bigram


def generate(model, idx, max_new_tokens, temperature=1.0, do_sample=False):
    """makemore's generate, cropping the context to the model's block size;
    sampling draws with the Gumbel-max trick instead of torch.multinomial."""
    block_size = model.get_block_size()
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.shape[1] <= block_size else idx[:, -block_size:]
        logits, _ = model(idx_cond)
        logits = logits[:, -1, :] / temperature
        probs = softmax(logits, axis=-1)
        if do_sample:
            gumbel = -log(-log(random_uniform(probs.shape) + 1e-9) + 1e-9)
            idx_next = argmax(log(probs + 1e-9) + gumbel, axis=2, keepdims=True)  # expect-error: index-out-of-range
        else:
            _, idx_next = topk(probs, k=1, axis=-1)
        idx = concat((idx, idx_next), axis=1)
    return idx


if __name__ == "__main__":
    config = ModelConfig(block_size=6, vocab_size=12, n_embd=8, n_embd2=16)
    X = cast(random_uniform((3, config.block_size)) * config.vocab_size, i64)
    Y = cast(random_uniform((3, config.block_size)) * config.vocab_size, i64)
    models = [Bigram(config), MLP(config), RNN(config, cell_type='rnn'),
              RNN(config, cell_type='gru'), BoW(config)]
    names = ("bigram", "mlp", "rnn", "gru", "bow")
    for name, model in zip(names, models):
        logits, loss = model(X, Y)
        assert logits.shape == (3, config.block_size, config.vocab_size)
        out = generate(model, X[:, :2], 3)
        assert out.shape == (3, 5)
        print(name, float(loss))
