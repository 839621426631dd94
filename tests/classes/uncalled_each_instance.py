# A method no entry calls runs on the instances the program built: on each
# of a few on its own, not on their join, since the join loses how their
# attributes go together (Whisper's blocks: `self.cross` and
# `self.cross_ln` are both a layer, or both None, so `if self.cross:`
# also tells `self.cross_ln` is there).  A mistake that one of the
# instances makes is still found.
from fathom import *


class Norm(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((n,))

    def forward(self, x):
        return x * self.w


class Block(Module):
    def __init__(self, n, cross=False):
        super().__init__()
        self.cross = Norm(n) if cross else None
        self.cross_ln = Norm(n) if cross else None
        self.proj = ones((n, 2 * n)) if cross else ones((n, n))

    def forward(self, x):
        if self.cross:
            x = self.cross(self.cross_ln(x))
        return x

    def gram(self):
        return self.proj @ self.proj  # expect-error: shape-mismatch


# Nine instances of different widths (GoogLeNet's Inception blocks): the
# method runs on each of the first eight, so a mistake every one of them
# makes is found (on the join of all nine the widths were `?`).
class Mix(Module):
    def __init__(self, d_in, d_hid):
        super().__init__()
        self.a = ones((d_hid, d_in))
        self.b = ones((d_in, d_hid))

    def forward(self, x):
        return x

    def fused(self):
        return self.a @ self.b.T  # expect-error: shape-mismatch


if __name__ == "__main__":
    mixes = [Mix(4 * k, 8 * k) for k in range(1, 10)]
    enc = Block(4)
    dec = Block(4, cross=True)
    print("built")
