# Bugs inside methods that only the __main__ block's sizes reveal: each is
# reported at its line, with the construction's context in a note.
from fathom import *


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = zeros((n_out, n_in), f32)

    def forward(self, x):
        return matmul(x, transpose(self.weight))  # expect-error: shape-mismatch


class MLP(Module):
    def __init__(self, sizes):
        super().__init__()
        self.fc1 = Linear(sizes[0], sizes[1])
        self.fc2 = Linear(sizes[1] + 1, sizes[2])

    def forward(self, x):
        h = relu(self.fc1(x))
        return self.fc2(h)


class Head(Module):
    def __init__(self):
        super().__init__()
        self.w = zeros((10,), f64)

    def forward(self, logits):
        return logits + self.w  # expect-error: dtype-mismatch


if __name__ == "__main__":
    net = MLP((784, 128, 10))
    head = Head()
    net(zeros((2, 784), f32))
    head(zeros((2, 10), f32))
