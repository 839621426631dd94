# A shape mismatch on a module's weight read through `.T` says where the
# module was built (the Linear whose in_features is wrong), as it does for
# the weight read directly.
from fathom import *


class Linear(Module):
    def __init__(self, fan_in, fan_out):
        super().__init__()
        self.weight = random_normal((fan_out, fan_in))

    def forward(self, x):
        return x @ self.weight.T


def main():
    first = Linear(8, 16)
    return first(random_normal((3, 48)))
