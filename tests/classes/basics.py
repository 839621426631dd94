# Classes as records (language.md 8): each construction is its own
# context, attributes keep their own values, class constants, methods per
# (instance, arguments) context, bound methods as function values.
from fathom import *


class Linear(Module):
    SCALE = 2
    DOUBLE = SCALE * 2   # the class body's own names come first

    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = zeros((n_out, n_in), f32)
        self.n_out = n_out

    def forward(self, x):
        return matmul(x, transpose(self.weight))

    def width(self):
        return self.n_out * self.SCALE


class Point:
    def __init__(self, x, y=0):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y


if __name__ == "__main__":
    a = Linear(784, 256)
    b = Linear(256, 10)
    reveal_type(a)  # expect-type: Linear{weight: Tensor[f32, (256, 784)], n_out: i64=256}
    reveal_type(b.weight)  # expect-type: Tensor[f32, (10, 256)]
    h = a(zeros((32, 784), f32))  # expect-type: Tensor[f32, (32, 256)]
    out = b(h)  # expect-type: Tensor[f32, (32, 10)]
    reveal_type(a.width())  # expect-type: i64=512
    reveal_type(Linear.SCALE)  # expect-type: i64=2
    reveal_type(a.DOUBLE)  # expect-type: i64=4
    f = b.forward
    reveal_type(f(h))  # expect-type: Tensor[f32, (32, 10)]
    p = Point(3, y=4)
    reveal_type(p.norm2())  # expect-type: i64=25
    reveal_type(Point(1).y)  # expect-type: i64=0
    reveal_type(isinstance(p, Point))  # expect-type: bool=True
    reveal_type(isinstance(p, Linear))  # expect-type: bool=False
    reveal_type(isinstance(a, Module))  # expect-type: bool=True
