# Methods that __init__ calls to define attributes (init helpers): a method
# that assigns attributes of self and returns no value may be called as a
# statement from __init__ (or its base's) to build the instance; from any
# other method or function it would change a built instance, an error.
from fathom import *


class Base(Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self._build(n)
        for i in range(2):
            self._grow(i)

    def _build(self, n):
        self.w = ones((n, n), f32)
        self.layers = []

    def _grow(self, i):
        self.layers.append(i * 10)  # expect-error: unsupported

    def forward(self, x):
        return matmul(x, self.w)

    def rebuild(self):
        self._build(3)  # expect-error: unsupported


class Child(Base):
    def __init__(self):
        super().__init__(4)
        self._build(5)


if __name__ == "__main__":
    b = Base(3)
    reveal_type(b)  # expect-type: Base{n: i64=3, w: Tensor[f32, (3, 3)], layers: list[i64=0, i64=10]}
    reveal_type(Child().w)  # expect-type: Tensor[f32, (5, 5)]
    reveal_type(b(ones((2, 3), f32)))  # expect-type: Tensor[f32, (2, 3)]
    b._grow(7)
