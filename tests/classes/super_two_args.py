# `super(Net, self).__init__()` (the older spelling many models use) is
# `super().__init__()`: it does not make self, or the lists later stored
# in it, shared, so a list of blocks built in __init__ keeps its items.
from fathom import *


class Block(Module):
    def __init__(self, n_in, n_out):
        super(Block, self).__init__()
        self.w = ones((n_out, n_in))

    def forward(self, x):
        return linear(x, self.w)


class Net(Module):
    def __init__(self, widths):
        super(Net, self).__init__()
        blocks = []
        n = 4
        for w in widths:
            blocks.append(Block(n, w))
            n = w
        self.blocks = blocks

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


if __name__ == "__main__":
    net = Net((8, 2))
    reveal_type(net.blocks)  # expect-type: list[Block{w: Tensor[f32, (8, 4)]}, Block{w: Tensor[f32, (2, 8)]}]
    y = net(ones((3, 4)))  # expect-type: Tensor[f32, (3, 2)]
