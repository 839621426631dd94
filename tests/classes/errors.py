# Mistakes with classes: a misspelt attribute (named with the class and a
# suggestion), assigning self.a outside __init__ (an error: instances are
# immutable once built), wrong arities, calling what cannot be called,
# multiple inheritance, appending to a list every instance shares, or to
# an attribute's list a method hands out (a list a method builds afresh is
# the caller's own to change).
from fathom import *


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = zeros((n_out, n_in), f32)
        self.bias = zeros((n_out,), f32)

    def forward(self, x):
        return matmul(x, transpose(self.weigth)) + self.bias  # expect-error: attribute

    def reset(self):
        self.bias = zeros((1,), f32)  # expect-error: unsupported
        self.weight.append(1)  # expect-error: unsupported


class Plain:
    def __init__(self):
        self.v = 1


class Lists:
    def __init__(self):
        self.xs = [1]
        self.made = self.fresh()

    def base(self):
        return [5]

    def fresh(self):
        ys = self.base()
        ys.append(2)
        return ys

    def handed_out(self):
        return self.xs

    def grow(self):
        ys = self.handed_out()
        ys.append(2)  # expect-error: unsupported
        return ys


class Registry:
    ITEMS = []

    def __init__(self, v):
        self.ITEMS.append(v)  # expect-warning: unsupported


class NoForward(Module):
    def helper(self):
        return 0


class A:
    pass


class B:
    pass


class C(A, B):  # expect-error: unsupported
    pass


if __name__ == "__main__":
    lin = Linear(4, 2)
    lin(zeros((3, 4), f32))
    lin2 = Linear(4)  # expect-error: arity
    Plain(1)  # expect-error: arity
    p = Plain()
    p()  # expect-error: not-callable
    p.w  # expect-error: attribute
    NoForward()(1)  # expect-error: not-callable
    lin.forward(1, 2)  # expect-error: arity
    Lists().grow()
    Registry(1)
