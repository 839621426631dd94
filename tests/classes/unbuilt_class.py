# A class nothing builds (a library file checked alone) is built once from
# unknown required arguments, its defaults kept, so its methods run on an
# instance whose attributes __init__ made: a misspelt tensor attribute or a
# dtype clash with an attribute's dtype is found.
# A class whose __init__ needs a keyword-only argument is left alone, and
# nothing here is an error that depends on the unknown arguments.
from fathom import *


class Conv(Module):
    def __init__(self, cin, cout, k=3, bias=True):
        super().__init__()
        self.weight = random_normal((cout, cin, k, k))
        self.bias = zeros((cout,)) if bias else None
        self.steps = ones((4,), i32)

    def forward(self, x):
        y = conv2d(x, self.weight, padding=1, bias=self.bias)
        return relu(y)

    def kernel_size(self):
        return self.weight.shapee[-1]  # expect-error: attribute

    def scaled(self):
        return self.steps * ones((4,), f32)  # expect-error: dtype-mismatch

    def fixed(self):
        # the instance is built leniently (its arguments are unknown): a
        # shape finding stands only when it holds for any sizes, which a
        # 4-into-3 reshape does not
        return reshape(self.steps, (3,))


class Head(Module):
    def __init__(self, *, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        return x[:, : self.n]


class Stack(Module):
    def __init__(self, layers, width):
        super().__init__()
        self.blocks = [Conv(width, width) for _ in range(layers)]
        self.proj = Conv(width, 1, k=1, bias=False)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.proj(x)


# A base class is not built on its own: its forward reads `self.proj`,
# which only its subclasses define.  The subclass, a leaf, is built.
class Base(Module):
    def __init__(self, d):
        super().__init__()
        self.d = d

    def forward(self, x):
        return self.proj(x) * self.scale()

    def scale(self):
        raise NotImplementedError


class Sub(Base):
    def __init__(self, d):
        super().__init__(d)
        self.proj = Conv(d, d, k=1)

    def scale(self):
        return self.proj.stepz  # expect-error: attribute
