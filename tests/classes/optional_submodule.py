# Optional sub-modules: `self.proj = Proj(n) if bias else None`, then
# `if self.proj is not None:` narrows every read of self.proj in the
# branch.  With a constant flag the attribute is exact; with an unknown
# one it is an optional, and the test makes the call safe.
from fathom import *


class Proj(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((n, n), f32)

    def forward(self, x):
        return matmul(x, self.w)


class Block(Module):
    def __init__(self, n, bias):
        super().__init__()
        self.proj = Proj(n) if bias else None

    def forward(self, x):
        if self.proj is not None:
            x = self.proj(x)
        return x

    def careless(self, x):
        return self.proj(x)  # expect-error: optional


def build(flag: bool, x: Tensor[f32, (2, 4)]):
    b = Block(4, flag)
    reveal_type(b)  # expect-type: Block{proj: Proj{w: Tensor[f32, (4, 4)]} | none}
    b.careless(x)
    return b(x)


if __name__ == "__main__":
    on = Block(4, True)
    off = Block(4, False)
    reveal_type(off)  # expect-type: Block{proj: none}
    reveal_type(on(ones((3, 4), f32)))  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(off(ones((3, 4), f32)))  # expect-type: Tensor[f32, (3, 4)]
