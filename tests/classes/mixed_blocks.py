# A list of blocks of different classes, built by appends in an unrolled
# loop (MLP-Mixer's alternating token and channel mixers, nn.Sequential
# stacks): while the list's length is known it is tracked item by item,
# so it may mix classes (language.md 5) and iterating it runs each block
# with its own shapes.  A constant index assignment keeps a local list
# tracked.
from fathom import *


class Scale(Module):
    def __init__(self, n):
        super().__init__()
        self.w = ones((n,), f32)

    def forward(self, x):
        return x * self.w


class Project(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = ones((n_in, n_out), f32)

    def forward(self, x):
        return matmul(x, self.w)


class Stack(Module):
    def __init__(self, depth, width):
        super().__init__()
        self.layers = []
        for i in range(depth):
            self.layers.append(Scale(width))
            self.layers.append(Project(width, width + i + 1))
            width = width + i + 1
        self.pair = [Scale(2), Project(2, 3)]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def mixed_literal():
    items = [1, "one", 1.5]
    items[1] = 2
    return items


if __name__ == "__main__":
    s = Stack(2, 4)
    reveal_type(len(s.layers))  # expect-type: i64=4
    reveal_type(s(ones((3, 4), f32)))  # expect-type: Tensor[f32, (3, 7)]
    reveal_type(s.pair[1].w)  # expect-type: Tensor[f32, (2, 3)]
    reveal_type(mixed_literal())  # expect-type: list[i64=1, i64=2, f64=1.5]
