# A method no entry calls runs on the instances the program built (with
# its other parameters unknown), so a misspelt attribute there is found;
# static methods take no instance.
from fathom import *


class Net(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((n, n), f32)
        self.n_layer = 2

    def forward(self, x):
        return matmul(x, self.w)

    def generate(self, x, steps):
        for _ in range(steps):
            x = matmul(x, self.w)
        return x, self.n_layers  # expect-error: attribute

    @staticmethod
    def helper(a):
        return a + 1


if __name__ == "__main__":
    net = Net(4)
    net(ones((2, 4), f32))
