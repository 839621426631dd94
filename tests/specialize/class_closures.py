# args: --entry main
# Methods with closures over self (a lambda, a nested def), a recursive
# method, a tuple of instances iterated and called (__call__): records
# captured by closures, in the executor and in C.
from fathom import *


class Poly:
    def __init__(self, a: int, b: int):
        self.a = a
        self.b = b
        self.pair = (Scale(a), Scale(b))

    def apply(self, xs):
        f = lambda v: v * self.a + self.b
        return [f(x) for x in xs]

    def total(self, n):
        def inner(k):
            return k + self.helper(k)
        s = 0
        for i in range(n):
            s = s + inner(i)
        return s

    def helper(self, k):
        if k <= 0:
            return 0
        return self.a + self.helper(k - 1)

    def both(self, v):
        out = 0
        for sc in self.pair:
            out = out + sc(v)
        return out


class Scale:
    def __init__(self, k: int):
        self.k = k

    def __call__(self, v):
        return v * self.k


def main(a: int, b: int, n: int) -> int:
    p = Poly(a, b)
    ys = p.apply([1, 2, 3])
    return ys[0] + ys[2] + p.total(n % 5) + p.both(n)
