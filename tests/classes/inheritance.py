# Single inheritance: super().__init__(...), super().method(...),
# inherited methods and attributes, overriding, isinstance with a base.
from fathom import *


class Base:
    KIND = "base"

    def __init__(self, n):
        self.n = n

    def size(self):
        return self.n

    def describe(self):
        return self.size() + 1


class Derived(Base):
    def __init__(self, n, k):
        super().__init__(n)
        self.k = k

    def size(self):
        return super().size() * self.k


class Leaf(Derived):
    pass


class Explicit(Base):
    def __init__(self):
        Base.__init__(self, 7)
        self.extra = True


if __name__ == "__main__":
    d = Derived(3, 4)
    reveal_type(d)  # expect-type: Derived{n: i64=3, k: i64=4}
    reveal_type(d.size())  # expect-type: i64=12
    reveal_type(d.describe())  # expect-type: i64=13
    reveal_type(d.KIND)  # expect-type: str='base'
    leaf = Leaf(2, 5)
    reveal_type(leaf.size())  # expect-type: i64=10
    reveal_type(isinstance(leaf, Base))  # expect-type: bool=True
    reveal_type(isinstance(Base(1), Derived))  # expect-type: bool=False
    e = Explicit()
    reveal_type(e)  # expect-type: Explicit{n: i64=7, extra: bool=True}
