"""Bigram, MLP, RNN (with its RNN and GRU cells) and Bag of Words models,
from karpathy/makemore makemore.py.

Changed: nn.Module is fathom.Module; nn.Parameter tensors are plain
attributes; register_buffer is an attribute; nn.ModuleDict(...) becomes
attributes of the block; torch.roll(idx, 1, 1) followed by
`idx[:, 0] = self.vocab_size` is one concat of the <BLANK> column and
idx[:, :-1]; the loss is fathom's cross_entropy without ignore_index (the
driver's targets have no -1 entries)."""
from fathom import *

from .layers import Embedding, Linear, Sequential, Tanh


def lm_loss(logits, targets=None):
    """The shared tail of every model's forward: the mean cross-entropy of
    the flattened logits, or None without targets."""
    if targets is None:
        return None
    return cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


class Bigram(Module):
    """Bigram Language Model 'neural net', simply a lookup table of logits
    for the next character given a previous character."""

    def __init__(self, config):
        super().__init__()
        n = config.vocab_size
        self.logits = zeros((n, n))

    def get_block_size(self):
        return 1  # this model only needs one previous character to predict the next

    def forward(self, idx, targets=None):
        logits = self.logits[idx]
        return logits, lm_loss(logits, targets)


class MLP(Module):
    """Takes the previous block_size tokens, encodes them with a lookup
    table, concatenates the vectors and predicts the next token with an
    MLP (Bengio et al. 2003)."""

    def __init__(self, config):
        super().__init__()
        self.block_size = config.block_size
        self.vocab_size = config.vocab_size
        self.wte = Embedding(config.vocab_size + 1, config.n_embd)  # +1 for a special <BLANK> token
        self.mlp = Sequential(
            Linear(self.block_size * config.n_embd, config.n_embd2),
            Tanh(),
            Linear(config.n_embd2, self.vocab_size),
        )

    def get_block_size(self):
        return self.block_size

    def forward(self, idx, targets=None):
        # gather the word embeddings of the previous block_size words
        embs = []
        for k in range(self.block_size):
            tok_emb = self.wte(idx)  # token embeddings of shape (b, t, n_embd)
            blank = full((idx.shape[0], 1), self.vocab_size, i64)
            idx = concat((blank, idx[:, :-1]), 1)
            embs.append(tok_emb)
        # concat all of the embeddings together and pass through an MLP
        x = concat(embs, -1)  # (b, t, n_embd * block_size)
        logits = self.mlp(x)
        return logits, lm_loss(logits, targets)


class RNNCell(Module):
    """the job of a 'Cell' is to take input at current time step x_{t} and
    the hidden state at the previous time step h_{t-1} and return the
    resulting hidden state h_{t} at the current timestep"""

    def __init__(self, config):
        super().__init__()
        self.xh_to_h = Linear(config.n_embd + config.n_embd2, config.n_embd2)

    def forward(self, xt, hprev):
        xh = concat([xt, hprev], 1)
        ht = tanh(self.xh_to_h(xh))
        return ht


class GRUCell(Module):
    """same job as RNN cell, but a bit more complicated recurrence formula
    that makes the GRU more expressive and easier to optimize."""

    def __init__(self, config):
        super().__init__()
        # input, forget, output, gate
        self.xh_to_z = Linear(config.n_embd + config.n_embd2, config.n_embd2)
        self.xh_to_r = Linear(config.n_embd + config.n_embd2, config.n_embd2)
        self.xh_to_hbar = Linear(config.n_embd + config.n_embd2, config.n_embd2)

    def forward(self, xt, hprev):
        # first use the reset gate to wipe some channels of the hidden state to zero
        xh = concat([xt, hprev], 1)
        r = sigmoid(self.xh_to_r(xh))
        hprev_reset = r * hprev
        # calculate the candidate new hidden state hbar
        xhr = concat([xt, hprev_reset], 1)
        hbar = tanh(self.xh_to_hbar(xhr))
        # calculate the switch gate that determines if each channel should be updated at all
        z = sigmoid(self.xh_to_z(xh))
        # blend the previous hidden state and the candidate new hidden state
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

        # embed all the integers up front and all at once for efficiency
        emb = self.wte(idx)  # (b, t, n_embd)

        # sequentially iterate over the inputs and update the RNN state each tick
        hprev = broadcast_to(self.start, (b, self.start.shape[1]))  # expand out the batch dimension
        hiddens = []
        for i in range(t):
            xt = emb[:, i, :]  # (b, n_embd)
            ht = self.cell(xt, hprev)  # (b, n_embd2)
            hprev = ht
            hiddens.append(ht)

        # decode the outputs
        hidden = stack(hiddens, 1)  # (b, t, n_embd2)
        logits = self.lm_head(hidden)
        return logits, lm_loss(logits, targets)


class CausalBoW(Module):
    """Causal bag of words. Averages the preceding elements and looks
    suspiciously like a CausalAttention module you'd find in a transformer,
    for no apparent reason at all ;)"""

    def __init__(self, config):
        super().__init__()
        # used to mask out vectors and preserve autoregressive property
        self.block_size = config.block_size
        self.bias = tril(ones((config.block_size, config.block_size))).view(
            1, config.block_size, config.block_size)

    def forward(self, x):
        B, T, C = x.shape  # batch size, sequence length, n_embd

        # do the weighted average of all preceeding token features
        att = zeros((B, T, T))
        att = att.masked_fill(self.bias[:, :T, :T] == 0, float('-inf'))
        att = softmax(att, axis=-1)
        y = att @ x  # (B, T, T) x (B, T, C) -> (B, T, C)
        return y


class BoWBlock(Module):
    """collects BoW features and adds an MLP"""

    def __init__(self, config):
        super().__init__()
        # Causal BoW module
        self.cbow = CausalBoW(config)
        # MLP assembler
        self.c_fc = Linear(config.n_embd, config.n_embd2)
        self.c_proj = Linear(config.n_embd2, config.n_embd)

    def mlpf(self, x):
        return self.c_proj(tanh(self.c_fc(x)))

    def forward(self, x):
        x = x + self.cbow(x)
        x = x + self.mlpf(x)
        return x


class BoW(Module):
    """takes the previous block_size tokens, encodes them with a lookup
    table, also encodes their positions with lookup table, then averages
    all of those embeddings up and uses that to predict the next token."""

    def __init__(self, config):
        super().__init__()
        self.block_size = config.block_size
        self.vocab_size = config.vocab_size
        # token embedding
        self.wte = Embedding(config.vocab_size, config.n_embd)
        # position embedding
        self.wpe = Embedding(config.block_size, config.n_embd)
        # context block
        self.context_block = BoWBlock(config)
        # language model head decoder layer
        self.lm_head = Linear(config.n_embd, self.vocab_size)

    def get_block_size(self):
        return self.block_size

    def forward(self, idx, targets=None):
        b, t = idx.shape
        assert t <= self.block_size, f"Cannot forward sequence of length {t}, block size is only {self.block_size}"
        pos = expand_dims(arange(t), 0)  # shape (1, t)

        # forward the token and position embedding layers
        tok_emb = self.wte(idx)  # token embeddings of shape (b, t, n_embd)
        pos_emb = self.wpe(pos)  # position embeddings of shape (1, t, n_embd)
        # add and run through the decoder MLP
        x = tok_emb + pos_emb
        # run the bag of words context module
        x = self.context_block(x)
        # decode to next token probability
        logits = self.lm_head(x)
        return logits, lm_loss(logits, targets)
