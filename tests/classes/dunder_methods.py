# An operator or a builtin on an instance whose class defines its method
# runs that method, as CPython does: `a + b` calls `a.__add__(b)` (or
# `b.__radd__(a)`), `v[i]` calls `__getitem__`, `len(v)` `__len__`.
from typing import reveal_type


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __rmul__(self, k):
        return Vec(k * self.x, k * self.y)

    def __getitem__(self, i):
        return self.x if i == 0 else self.y

    def __len__(self):
        return 2


class Plain:
    def __init__(self, v):
        self.v = v


def main():
    v = Vec(1, 2) + Vec(3, 4)
    reveal_type(v)  # expect-type: Vec{x: i64=4, y: i64=6}
    w = 3 * v
    reveal_type(w[1])  # expect-type: i64=18
    reveal_type(len(w))  # expect-type: i64=2
    return w


def no_method():
    return Plain(1) + Plain(2)  # expect-error: type-mismatch


if __name__ == "__main__":
    print(main()[0])
