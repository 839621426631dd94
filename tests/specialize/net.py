# args: --entry Net.forward --init-args (8,)
# A model written as classes, specialized from a method entry: `self` is
# a parameter of record type (Net's fields, the sub-modules' records
# nested), built as Net(8) by --init-args; each Linear instance keeps its
# own shapes, a list of blocks is iterated, and an optional sub-module a
# constant flag leaves out is folded away.
from __future__ import annotations
from fathom import *


class Linear(Module):
    def __init__(self, n_in: int, n_out: int, bias: bool = True):
        super().__init__()
        self.weight = random_normal((n_out, n_in), f32)
        self.bias = random_normal((n_out,), f32) if bias else None

    def forward(self, x):
        y = x @ self.weight.T
        if self.bias is not None:
            y = y + self.bias
        return y


class Block(Module):
    def __init__(self, d: int):
        super().__init__()
        self.fc = Linear(d, d, bias=False)

    def forward(self, x):
        return x + relu(self.fc(x))


class Net(Module):
    def __init__(self, d: int):
        super().__init__()
        self.inp = Linear(d, 16)
        self.blocks = [Block(16) for _ in range(2)]
        self.out = Linear(16, 4)
        self.scale = 0.5

    def forward(self, x: Tensor[f32, (B, 8)]):
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h) * self.scale


if __name__ == "__main__":
    net = Net(8)
    print(net(random_normal((3, 8), f32)).shape)
