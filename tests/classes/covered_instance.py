# A layer class that only a branch every analysed call skips builds
# (`GRU(...) if cell == 'gru' else LSTM(...)` with cell always 'lstm'):
# once the coverage of that branch has built an instance, the class's
# methods run on it (their other arguments unknown), so a misspelt
# attribute in them is found, with a note at the construction.
from fathom import *


class LSTMCell(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((4 * n, n))
        self.n = n

    def forward(self, x):
        return split(linear(x, self.w), 4, axis=-1)[0]


class GRUCell(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((3 * n, n))
        self.n = n

    def forward(self, x):
        return split(linear(x, self.weight), 3, axis=-1)[0]  # expect-error: attribute

    def size(self):
        return self.n


class RNN(Module):
    def __init__(self, cell, n):
        super().__init__()
        self.cell = GRUCell(n) if cell == 'gru' else LSTMCell(n)

    def forward(self, x):
        return self.cell(x)


if __name__ == "__main__":
    rnn = RNN('lstm', 4)
    y = rnn(ones((2, 4)))  # expect-type: Tensor[f32, (2, 4)]
