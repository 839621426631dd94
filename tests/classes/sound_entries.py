# Annotated entries that build and use instances: the soundness suite runs
# them under CPython on random inputs and checks each result lies inside
# the value fathom infers (instances included, attribute by attribute).
from dataclasses import dataclass


@dataclass
class Cfg:
    n: int = 4
    scale: float = 1.5
    flag: bool = False


class Acc:
    def __init__(self, start, k):
        self.total = start
        self.items = []
        for i in range(3):
            self.items.append(start + i * k)
        self.last = self.items[-1]

    def mean(self):
        return (self.items[0] + self.items[1] + self.items[2]) / 3

    @property
    def spread(self):
        return self.last - self.total


class Gate:
    def __init__(self, on):
        self.inner = Acc(1, 2) if on else None

    def value(self):
        if self.inner is not None:
            return self.inner.spread
        return -1


def build(n: int, k: int):
    a = Acc(n, k)
    return a, a.mean(), a.spread


def config(n: int, flag: bool):
    return Cfg(n=n, flag=flag), Cfg(scale=2.0).scale


def gate(on: bool):
    g = Gate(on)
    return g.value(), g


def main():
    a = Acc(2, 3)
    reveal_type(a.items)  # expect-type: list[i64=2, i64=5, i64=8]
    reveal_type(a.spread)  # expect-type: i64=6
    reveal_type(gate(True)[0])  # expect-type: i64=4
    return a
