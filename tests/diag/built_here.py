# A shape error on an instance's attribute (`self.weight`) says where that
# instance was built and with what arguments, and where the module that
# holds it was built: the wrong size was written at line 27, not in
# Linear.forward where the matmul fails.
from fathom import *


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = random_normal((n_out, n_in))

    def forward(self, x):
        return linear(x, self.weight)


class Block(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.proj = Linear(n_in, n_out)

    def forward(self, x):
        return self.proj(x)


if __name__ == "__main__":
    block = Block(16, 8)
    y = block(ones((2, 32)))
