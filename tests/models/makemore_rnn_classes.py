"""makemore (karpathy/makemore makemore.py): ModelConfig, RNNCell, GRUCell,
RNN, MLP, Bigram and generate().  nn.Linear / nn.Embedding / nn.Sequential
/ nn.Tanh are small classes; torch.roll(idx, 1, 1) is a concat of slices;
cross_entropy has no ignore_index; multinomial sampling is not used
(do_sample=False path kept)."""
from dataclasses import dataclass

from fathom import *


@dataclass
class ModelConfig:
    block_size: int = None  # length of the input sequences of integers
    vocab_size: int = None  # the input integers are in range [0 .. vocab_size -1]
    n_layer: int = 4
    n_embd: int = 64
    n_embd2: int = 64
    n_head: int = 4


class Linear(Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = random_normal((n_out, n_in)) * 0.02
        self.bias = zeros((n_out,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num, dim):
        super().__init__()
        self.weight = random_normal((num, dim))

    def forward(self, idx):
        return embedding(self.weight, idx)


class Tanh(Module):
    def forward(self, x):
        return tanh(x)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def roll(x, shift, dim):
    n = x.shape[dim]
    if dim == 1:
        return concat([x[:, n - shift:], x[:, :n - shift]], axis=1)
    return concat([x[n - shift:], x[:n - shift]], axis=0)


class RNNCell(Module):
    def __init__(self, config):
        super().__init__()
        self.xh_to_h = Linear(config.n_embd + config.n_embd2, config.n_embd2)

    def forward(self, xt, hprev):
        xh = concat([xt, hprev], axis=1)
        ht = tanh(self.xh_to_h(xh))
        return ht


class GRUCell(Module):
    def __init__(self, config):
        super().__init__()
        # input, forget, output, gate
        self.xh_to_z = Linear(config.n_embd + config.n_embd2, config.n_embd2)
        self.xh_to_r = Linear(config.n_embd + config.n_embd2, config.n_embd2)
        self.xh_to_hbar = Linear(config.n_embd + config.n_embd2, config.n_embd2)

    def forward(self, xt, hprev):
        xh = concat([xt, hprev], axis=1)
        r = sigmoid(self.xh_to_r(xh))
        hprev_reset = r * hprev
        xhr = concat([xt, hprev_reset], axis=1)
        hbar = tanh(self.xh_to_hbar(xhr))
        z = sigmoid(self.xh_to_z(xh))
        ht = (1 - z) * hprev + z * hbar
        return ht


class RNN(Module):

    def __init__(self, config, cell_type):
        super().__init__()
        self.block_size = config.block_size
        self.vocab_size = config.vocab_size
        self.start = zeros((1, config.n_embd2))  # the starting hidden state
        self.wte = Embedding(config.vocab_size, config.n_embd)  # token embeddings table
        if cell_type == 'rnn':
            self.cell = RNNCell(config)
        elif cell_type == 'gru':
            self.cell = GRUCell(config)
        self.lm_head = Linear(config.n_embd2, self.vocab_size)

    def get_block_size(self):
        return self.block_size

    def forward(self, idx, targets=None):
        b, t = idx.shape

        emb = self.wte(idx)  # (b, t, n_embd)

        hprev = broadcast_to(self.start, (b, self.start.shape[1]))  # expand out the batch dimension
        hiddens = []
        for i in range(t):
            xt = emb[:, i, :]  # (b, n_embd)
            ht = self.cell(xt, hprev)  # (b, n_embd2)
            hprev = ht
            hiddens.append(ht)

        hidden = stack(hiddens, 1)  # (b, t, n_embd2)
        logits = self.lm_head(hidden)

        loss = None
        if targets is not None:
            loss = cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

        return logits, loss


class MLP(Module):

    def __init__(self, config):
        super().__init__()
        self.block_size = config.block_size
        self.vocab_size = config.vocab_size
        self.wte = Embedding(config.vocab_size + 1, config.n_embd)  # token embeddings table
        self.mlp = Sequential(
            Linear(self.block_size * config.n_embd, config.n_embd2),
            Tanh(),
            Linear(config.n_embd2, self.vocab_size)
        )

    def get_block_size(self):
        return self.block_size

    def forward(self, idx, targets=None):
        embs = []
        for k in range(self.block_size):
            tok_emb = self.wte(idx)  # token embeddings of shape (b, t, n_embd)
            idx = roll(idx, 1, 1)
            idx[:, 0] = self.vocab_size  # special <BLANK> token
            embs.append(tok_emb)

        x = concat(embs, -1)  # (b, t, n_embd * block_size)
        logits = self.mlp(x)

        loss = None
        if targets is not None:
            loss = cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

        return logits, loss


class Bigram(Module):

    def __init__(self, config):
        super().__init__()
        n = config.vocab_size
        self.logits = zeros((n, n))

    def get_block_size(self):
        return 1  # this model only needs one previous character to predict the next

    def forward(self, idx, targets=None):
        logits = self.logits[idx]

        loss = None
        if targets is not None:
            loss = cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

        return logits, loss


def generate(model, idx, max_new_tokens, temperature=1.0, do_sample=False, top_k=None):
    block_size = model.get_block_size()
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.shape[1] <= block_size else idx[:, -block_size:]
        logits, _ = model(idx_cond)
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = topk(logits, top_k)
            logits[logits < v[:, -1:]] = -float('Inf')
        probs = softmax(logits, axis=-1)
        _, idx_next = topk(probs, 1, axis=-1)
        idx = concat((idx, idx_next), axis=1)

    return idx


if __name__ == '__main__':
    config = ModelConfig(vocab_size=27, block_size=16, n_embd=16, n_embd2=32)
    X = zeros((4, config.block_size), dtype=i64)
    Y = ones((4, config.block_size), dtype=i64)
    for model in (Bigram(config), MLP(config), RNN(config, 'rnn'), RNN(config, 'gru')):
        logits, loss = model(X, Y)
        assert logits.shape == (4, 16, 27)
        out = generate(model, zeros((2, 1), dtype=i64), 3, top_k=5)
        assert out.shape == (2, 4)
    print("makemore ok")
