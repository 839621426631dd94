# args: --entry Net.forward --args Tensor[f32,(B,4)]
# A method as the entry (language.md 8): `self` is the instance the
# __main__ block built, and --args give the parameters after self.
from fathom import *


class Lin(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = ones((n_in, n_out), f32)

    def forward(self, x):
        return matmul(x, self.w)


class Net(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = Lin(n_in, 2 * n_out)
        self.out = Lin(2 * n_out, n_out)

    def forward(self, x):
        return self.out(relu(self.fc(x)))


if __name__ == "__main__":
    net = Net(4, 3)
    net(ones((2, 4), f32))
