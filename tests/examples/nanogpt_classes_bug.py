# expect-error at line 102: shape-mismatch
# Planted bug: MLP.c_proj takes 3 * n_embd features but c_fc gives 4 * n_embd; MLP.forward's call of c_proj (line 102) is reported, as Linear.forward works for the other layers; a note shows where c_proj was built.
"""GPT forward pass with loss, translated from karpathy/nanoGPT model.py in
its original class form: the GPTConfig dataclass, LayerNorm with optional
bias, CausalSelfAttention with the `flash` switch and the registered causal
`bias` buffer, MLP, Block, and GPT with its list of blocks (nn.ModuleList)
and weight tying (lm_head shares wte).

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding / nn.Dropout
are small classes here; parameters are initialised with random_normal;
scaled_dot_product_attention (the flash path) is written out with a causal
mask from arange; torch.tril is an arange comparison; masked_fill is where;
F.cross_entropy is log_softmax + one_hot.  Sizes are tiny so the file runs
fast.
"""
import math
from dataclasses import dataclass

from fathom import *


@dataclass
class GPTConfig:
    block_size: int = 16
    vocab_size: int = 32
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 8
    dropout: float = 0.0
    bias: bool = True


class Linear(Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = random_normal((n_out, n_in)) * 0.02
        self.bias = zeros((n_out,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LayerNorm(Module):
    """LayerNorm but with an optional bias (PyTorch doesn't support simply bias=False)."""

    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = ones((ndim,))
        self.bias = zeros((ndim,)) if bias else None

    def forward(self, x):
        return layer_norm(x, self.weight, self.bias)


class CausalSelfAttention(Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.flash = True
        if not self.flash:
            # causal mask so that attention is only applied to the left
            bs = config.block_size
            rows = reshape(arange(bs), (bs, 1))
            cols = reshape(arange(bs), (1, bs))
            self.bias = reshape(cast(cols <= rows, f32), (1, 1, bs, bs))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = split(self.c_attn(x), 3, axis=2)
        k = transpose(reshape(k, (B, T, self.n_head, C // self.n_head)), (0, 2, 1, 3))
        q = transpose(reshape(q, (B, T, self.n_head, C // self.n_head)), (0, 2, 1, 3))
        v = transpose(reshape(v, (B, T, self.n_head, C // self.n_head)), (0, 2, 1, 3))
        if self.flash:
            att = matmul(q, transpose(k, (0, 1, 3, 2))) / math.sqrt(q.shape[-1])
            allowed = reshape(arange(T), (1, T)) <= reshape(arange(T), (T, 1))
            att = softmax(where(allowed, att, float('-inf')), axis=-1)
            y = dropout(att, self.dropout) @ v
        else:
            att = (q @ transpose(k, (0, 1, 3, 2))) * (1.0 / math.sqrt(k.shape[-1]))
            att = where(self.bias[:, :, :T, :T] == 0, float('-inf'), att)
            att = softmax(att, axis=-1)
            att = dropout(att, self.dropout)
            y = att @ v
        y = reshape(transpose(y, (0, 2, 1, 3)), (B, T, C))
        return dropout(self.c_proj(y), self.dropout)


class MLP(Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.c_proj = Linear(3 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = config.dropout

    def forward(self, x):
        x = gelu(self.c_fc(x))
        return dropout(self.c_proj(x), self.dropout)


class Block(Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(Module):
    def __init__(self, config):
        super().__init__()
        assert config.vocab_size is not None
        assert config.block_size is not None
        self.config = config
        self.wte = random_normal((config.vocab_size, config.n_embd)) * 0.02
        self.wpe = random_normal((config.block_size, config.n_embd)) * 0.02
        self.drop = config.dropout
        self.h = [Block(config) for _ in range(config.n_layer)]
        self.ln_f = LayerNorm(config.n_embd, bias=config.bias)

    def forward(self, idx, targets=None):
        b, t = idx.shape
        assert t <= self.config.block_size
        pos = arange(t)
        x = dropout(embedding(self.wte, idx) + embedding(self.wpe, pos), self.drop)
        for block in self.h:
            x = block(x)
        x = self.ln_f(x)
        if targets is not None:
            logits = linear(x, self.wte)   # weight tying: lm_head is wte
            logp = log_softmax(reshape(logits, (-1, logits.shape[-1])), axis=-1)
            onehot = one_hot(reshape(targets, (-1,)), logits.shape[-1])
            loss = -mean(reduce_sum(onehot * logp, axis=1))
        else:
            logits = linear(x[:, -1:, :], self.wte)
            loss = None
        return logits, loss


if __name__ == "__main__":
    config = GPTConfig(bias=False)
    model = GPT(config)
    idx = cast(random_uniform((2, 8)) * config.vocab_size, i64)
    targets = cast(random_uniform((2, 8)) * config.vocab_size, i64)
    logits, loss = model(idx, targets)
    assert logits.shape == (2, 8, config.vocab_size)
    assert loss.shape == ()
    last, none_loss = model(idx)
    assert last.shape == (2, 1, config.vocab_size)
    print("nanogpt (classes) ok", float(loss))
