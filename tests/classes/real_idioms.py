# Idioms of real model code that CPython runs and fathom accepts:
# - `norm_layer=partial(LayerNorm, eps=1e-6)` (timm, torchvision): a class
#   in partial is called as its construction;
# - `def __init__(self, c: int) -> None:` (typed PyTorch): __init__
#   returns None, whatever the instance it builds;
# - `config = Config(); config.vocab = 64; model = Net(config)` (minGPT):
#   a local instance changed before anything else holds it is rebound
#   to the changed instance;
# - `layers = []; if cfg.expand: layers.append(A()); layers.append(B())`
#   analysed with cfg unknown: the list's length is unknown only because
#   of the test on unknown, so its items' classes may differ;
# - `self.embed[0, :] = 0.0` in __init__ (a padding row; the positional
#   encoding's `self.pe[:, 0::2] = ...`) changes the attribute being built;
# - `def embed_rows(net: Net) -> int:` annotates with a class of the
#   program: valid Python, not a value fathom builds from the annotation,
#   so the parameter is unknown there, without a warning.
from dataclasses import dataclass
from functools import partial
from fathom import *
from typing import reveal_type


@dataclass
class Config:
    vocab: int = 16
    dim: int = 8


class LayerNorm(Module):
    def __init__(self, dim: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.weight = ones((dim,))
        self.eps = eps

    def forward(self, x):
        return layer_norm(x, self.weight, None, self.eps)


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class Tanh(Module):
    def forward(self, x):
        return tanh(x)


class Net(Module):
    def __init__(self, config, norm_layer=None) -> None:
        super().__init__()
        norm_layer = norm_layer if norm_layer is not None else LayerNorm
        self.embed = random_normal((config.vocab, config.dim))
        self.embed[0, :] = 0.0   # an item of an attribute, set in __init__
        self.norm = norm_layer(config.dim)

    def forward(self, ids):
        return self.norm(take(self.embed, ids, axis=0))


def make_layers(cfg):
    layers = []
    if cfg.expand:
        layers.append(ReLU())
    layers.append(Tanh())
    return layers


def embed_rows(net: Net) -> int:
    return net.embed.shape[0]


if __name__ == "__main__":
    config = Config()
    config.vocab = 64
    reveal_type(config)  # expect-type: Config{vocab: i64=64, dim: i64=8}
    net = Net(config, norm_layer=partial(LayerNorm, eps=1e-6))
    reveal_type(net.norm.eps)  # expect-type: f64=1e-06
    y = net(zeros((3,), dtype=i64))
    reveal_type(y)  # expect-type: Tensor[f32, (3, 8)]
    reveal_type(embed_rows(net))  # expect-type: i64=64
