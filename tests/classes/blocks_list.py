# Instances in known-length lists: a comprehension of blocks and a list
# grown with append in a loop of __init__ keep each block; iterating them
# in forward runs each block in its own context.
from fathom import *
from dataclasses import dataclass


@dataclass
class Config:
    n_layer: int = 3
    n_embd: int = 16


class Block(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = ones((n_in, n_out), f32)

    def forward(self, x):
        return relu(matmul(x, self.w))


class Tower(Module):
    def __init__(self, cfg):
        super().__init__()
        self.blocks = [Block(cfg.n_embd, cfg.n_embd) for _ in range(cfg.n_layer)]
        self.widths = []
        for i in range(3):
            self.widths.append(Block(8 * (i + 1), 8 * (i + 2)))
        self.depth = len(self.blocks) + len(self.widths)

    def forward(self, x, y):
        for blk in self.blocks:
            x = blk(x)
        for blk in self.widths:
            y = blk(y)
        return x, y


if __name__ == "__main__":
    t = Tower(Config(n_layer=2))
    reveal_type(t.depth)  # expect-type: i64=5
    reveal_type(t.widths[2].w)  # expect-type: Tensor[f32, (24, 32)]
    reveal_type(t(ones((4, 16), f32), ones((4, 8), f32)))  # expect-type: tuple[Tensor[f32, (4, 16)], Tensor[f32, (4, 32)]]
