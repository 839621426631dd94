# The Annotated Transformer's pattern: a known-length list of layers
# zipped with the inputs keeps each layer with its own input, so each
# projection keeps its shape (language.md 5 and 8).
from fathom import *


class Lin(Module):
    def __init__(self, a, b):
        super().__init__()
        self.w = ones((a, b), f32)

    def forward(self, x):
        return matmul(x, self.w)


class Attention(Module):
    def __init__(self, d):
        super().__init__()
        self.linears = [Lin(d, d), Lin(d, 2 * d), Lin(d, 3 * d)]

    def forward(self, query, key, value):
        q, k, v = [lin(x) for lin, x in zip(self.linears, (query, key, value))]
        return q, k, v


if __name__ == "__main__":
    m = Attention(4)
    r = m(ones((2, 4), f32), ones((3, 4), f32), ones((5, 4), f32))  # expect-type: tuple[Tensor[f32, (2, 4)], Tensor[f32, (3, 8)], Tensor[f32, (5, 12)]]
    reveal_type(len(m.linears))  # expect-type: i64=3
