# A class constant read through the class (`if SdpaAttention.use_sdpa:`,
# which Whisper's disable_sdpa() turns off) is a flag test like an
# instance's attribute: the branch every analysed call skips is analysed
# with the note saying which way the test was assumed, and a mistake there
# is found.  A flag that also decides which attributes __init__ defines
# (`if not self.flash: self.bias = ...`) stays quiet in the branch that
# reads them.
from fathom import *


class Attention(Module):
    def __init__(self, d, flash=True):
        super().__init__()
        self.flash = flash
        self.proj = random_normal((d, d))
        if not self.flash:
            self.bias = tril(ones((8, 8)))

    def forward(self, x):
        T = x.shape[1]
        att = x @ transpose(x, (0, 2, 1))
        if not self.flash:
            att = masked_fill(att, self.bias[:T, :T] == 0, -1e9)
        y = softmax(att, axis=-1) @ x
        if self.flash:
            y = y * 1.0
        else:
            y = y + 0.0
        return y @ self.proj


class SdpaAttention(Module):
    use_sdpa = True   # a class constant (Whisper's disable_sdpa() turns it off)

    def forward(self, q, k):
        if SdpaAttention.use_sdpa:
            return softmax(q @ transpose(k, (0, 2, 1)), axis=-1)
        else:
            return q @ k  # expect-error: shape-mismatch


if __name__ == "__main__":
    att = Attention(16)
    print(att(ones((2, 8, 16))).shape)
    print(SdpaAttention()(ones((2, 6, 8)), ones((2, 6, 8))).shape)
