# Class-based model code in the differential suites: the soundness suite
# (tests/soundness.py) and the shape suite (tests/shapes.py) call these
# annotated entries under CPython on random inputs (every symbol drawn,
# flags both ways) and check each result, tensors and instances
# attribute by attribute, lies inside the value fathom infers.  Covers a
# dataclass config, inheritance with super().__init__ and
# super().forward, a property, an optional sub-module, a list of blocks
# and a tuple of blocks of different classes.
from __future__ import annotations

from dataclasses import dataclass

from fathom import *


@dataclass
class Cfg:
    d: int = 8
    n_layer: int = 2
    bias: bool = True


class Linear(Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = ones((n_out, n_in)) * 0.1
        self.bias = zeros((n_out,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)

    @property
    def out_features(self):
        return self.weight.shape[0]


class Residual(Linear):
    def __init__(self, n, bias=True):
        super().__init__(n, n, bias)
        self.scale = 0.5

    def forward(self, x):
        return x + self.scale * super().forward(x)


class Block(Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = Residual(cfg.d, cfg.bias)
        self.proj = Linear(cfg.d, cfg.d) if cfg.bias else None

    def forward(self, x):
        h = relu(self.fc(x))
        if self.proj is not None:
            h = self.proj(h)
        return h


class Net(Module):
    def __init__(self, cfg, n_out):
        super().__init__()
        self.blocks = [Block(cfg) for _ in range(cfg.n_layer)]
        self.head = Linear(cfg.d, n_out)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class Pipeline(Module):
    def __init__(self, n):
        super().__init__()
        self.stages = (Linear(n, 2 * n), Residual(2 * n, False), Linear(2 * n, 3))

    def forward(self, x):
        for stage in self.stages:
            x = stage(x)
        return x


def run(x: Tensor[f32, (B, 8)], flag: bool):
    net = Net(Cfg(bias=flag), 3)
    y = net(x)  # expect-type: Tensor[f32, (2, 3)] | Tensor[f32, (B, 3)]
    return y, net.head.out_features


def layer(x: Tensor[f32, (B, T, 8)]):
    lin = Linear(8, 4, False)
    return lin(x), lin


def block(x: Tensor[f32, (N, 4)], flag: bool):
    b = Block(Cfg(d=4, bias=flag))
    reveal_type(b.proj)  # expect-type: Linear{weight: Tensor[f32, (4, 4)], bias: Tensor[f32, (4,)]} | none
    return b(x), b


def pipeline(x: Tensor[f32, (B, 5)]):
    p = Pipeline(5)
    return p(x), p.stages[1].out_features


if __name__ == "__main__":
    out, n = run(ones((2, 8)), True)
    assert out.shape == (2, 3) and n == 3
    y, p = pipeline(ones((4, 5)))
    assert y.shape == (4, 3) and p == 10
