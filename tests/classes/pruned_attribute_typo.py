# In a branch a constant flag prunes (analysed as if the test went the
# other way), an attribute the instance lacks is silent when some method
# of the class assigns it (nanoGPT's `bias` buffer exists only when
# `flash` is off), but a name no method of the class or its bases assigns
# is a typo whichever way the flags go: reported, with "did you mean".
from fathom import *


class Base(Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0


class Block(Base):
    def __init__(self, flash):
        super().__init__()
        self.flash = flash
        self.main = ones((4,))
        if not flash:
            self.mask = zeros((4,))

    def forward(self, x):
        if self.flash:
            return x * self.main
        y = x * self.main + self.mask          # the flag guards self.mask: silent
        z = y * self.scale                     # a base's attribute: present
        return z + self.mian  # expect-error: attribute


if __name__ == "__main__":
    b = Block(True)
    out = b(ones((4,)))
    print(out)
