# A model as classes: `backend net.py Net.forward B=64` lists the weights
# the entry's self holds (a record parameter), then the ops.
from __future__ import annotations
from fathom import *


class Linear(Module):
    def __init__(self, n_in: int, n_out: int):
        super().__init__()
        self.weight = zeros((n_out, n_in), f32)
        self.bias = zeros((n_out,), f32)

    def forward(self, x):
        return x @ self.weight.T + self.bias


class Net(Module):
    def __init__(self, d: int, hidden: int):
        super().__init__()
        self.fc1 = Linear(d, hidden)
        self.fc2 = Linear(hidden, 10)

    def forward(self, x: Tensor[f32, (B, 784)]):
        return softmax(self.fc2(relu(self.fc1(x))), axis=-1)


if __name__ == "__main__":
    net = Net(784, 256)
    print(net(zeros((2, 784), f32)).shape)
