from __future__ import annotations
from fathom import *

SCALE = 2


class Linear(Module):
    def __init__(self, n_in, n_out):
        self.weight = zeros((n_in, n_out))
        self.bias = zeros((n_out,))

    def forward(self, x):
        return matmul(x, self.weight) + self.bias


class Block(Module):
    def __init__(self, n):
        self.proj = Linear(n, n)

    def forward(self, x):
        h = self.proj(x)
        return relu(h) * SCALE


def total(xs, start):
    acc = start
    for x in xs:
        acc = acc + x * SCALE
    return acc


def shadow(SCALE):
    return SCALE + 1


def main():
    b = Block(4)
    y = b.forward(ones((3, 4)))
    t = total((1, 2, 3), 0)
    return y, t, shadow(5)


if __name__ == "__main__":
    main()
