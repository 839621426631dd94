# A class nothing builds (a library file checked alone) is built once from
# unknown required arguments, its defaults kept, so its methods run on an
# instance whose attributes __init__ made: a misspelt tensor attribute, a
# dtype clash with a default's dtype, a shape a constant fixes, are found.
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
        return reshape(self.steps, (3,))  # expect-error: shape-mismatch


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
