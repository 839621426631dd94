# A helper that only passes its arguments on (open_clip's
# `checkpoint(fn, *args)`, which runs `fn(*args)`) cannot be wrong about
# them: a call that fails through it is reported at the call of the
# helper, where the arguments were swapped (line 31), in a branch every
# analysed call skips (`grad_checkpointing` is False).
from fathom import *


def checkpoint(fn, *args):
    return fn(*args)


class Block(Module):
    def __init__(self, d):
        super().__init__()
        self.w = ones((d,))

    def forward(self, x, mask):
        return layer_norm(x, self.w) + mask[:, :1]


class Stack(Module):
    def __init__(self, d):
        super().__init__()
        self.blocks = [Block(d), Block(d)]
        self.grad_checkpointing = False

    def forward(self, x, mask):
        for r in self.blocks:
            if self.grad_checkpointing:
                x = checkpoint(r, mask, x)
            else:
                x = r(x, mask)
        return x


if __name__ == "__main__":
    print(Stack(32)(random_normal((8, 32)), zeros((8, 8))).shape)
