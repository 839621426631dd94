# @property reads as an attribute; @staticmethod is not bound; a user
# __call__; MindSpore-style construct as the forward of a fathom.Module.
from fathom import *


class Shape:
    def __init__(self, h, w):
        self.h = h
        self.w = w

    @property
    def area(self):
        return self.h * self.w

    @staticmethod
    def square(n):
        return Shape(n, n)


class Scale:
    def __init__(self, s):
        self.s = s

    def __call__(self, x):
        return x * self.s


class LeNetHead(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = ones((n_in, n_out), f32)

    def construct(self, x):
        return matmul(x, self.w)


if __name__ == "__main__":
    s = Shape(2, 3)
    reveal_type(s.area)  # expect-type: i64=6
    reveal_type(Shape.square(4).area)  # expect-type: i64=16
    reveal_type(s.square(5).h)  # expect-type: i64=5
    sc = Scale(2.5)
    reveal_type(sc(2))  # expect-type: f64=5.0
    head = LeNetHead(84, 10)
    reveal_type(head(ones((8, 84), f32)))  # expect-type: Tensor[f32, (8, 10)]
