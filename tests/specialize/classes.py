# args: --entry main
# Classes as records (language.md 8): constructions are record_new and a
# call of __init__ (record_set per field), attribute reads record_get,
# methods direct calls with the instance first (inheritance, super(),
# @property, @staticmethod, __call__ and fathom.Module's forward), and a
# bound method passed as a value is partial(@method, self); a class passed
# as a value is a constant, Class('Point'), whose calls are resolved.
from fathom import *


class Point:
    ORIGIN = 0

    def __init__(self, x: int, y: int = 0):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y

    @property
    def total(self):
        return self.x + self.y

    @staticmethod
    def twice(v):
        return 2 * v

    def shifted(self, d):
        return Point(self.x + d, self.y + d)


class Point3(Point):
    def __init__(self, x: int, y: int, z: int):
        super().__init__(x, y)
        self.z = z

    def norm2(self):
        return super().norm2() + self.z * self.z


class Scale(Module):
    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def forward(self, v):
        return v * self.k + 1


class Offset:
    def __init__(self, d: int):
        self.d = d

    def __call__(self, v):
        return v - self.d


def apply_twice(f, v):
    return f(f(v))


def build(cls, v):
    return cls(v, v)


def main(a: int, b: int) -> int:
    p = Point(a, b)
    q = p.shifted(1)
    r = Point3(a, b, 2)
    scale = Scale(3)
    off = Offset(b)
    step = off.__call__
    norm2 = Point.norm2
    return (q.norm2() + p.total + Point.twice(a) + r.norm2() + scale(b) + off(a)
            + Point.norm2(p) + apply_twice(step, a) + Point.ORIGIN + norm2(build(Point, b)))


if __name__ == "__main__":
    print(main(3, 4))
