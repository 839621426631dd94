# A shape mismatch on a module's weight read through a layout op
# (`transpose(self.weight)`, as in `matmul(x, transpose(self.weight))`)
# says where the module was built, as `.T` and a direct read do: here the
# head whose arguments are swapped.
from fathom import *


class Linear(Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = random_normal((d_out, d_in))

    def forward(self, x):
        return matmul(x, transpose(self.weight))


def main():
    head = Linear(10, 32)
    return head(random_normal((2, 32)))
