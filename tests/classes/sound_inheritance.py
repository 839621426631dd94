# Scalar entries over class hierarchies for the soundness suite
# (tests/soundness.py runs them under CPython on random inputs): single
# inheritance with super().__init__ and super().method, a property, a
# list of blocks built from a parameter, an optional member, class
# constants and a dataclass with defaults.
from dataclasses import dataclass
from typing import reveal_type


@dataclass
class Opts:
    width: int = 2
    gain: float = 0.5
    shift: bool = False


class Counter:
    base = 10

    def __init__(self, start):
        self.start = start

    def step(self, k):
        return self.start + k + self.base


class Doubler(Counter):
    def __init__(self, start, factor):
        super().__init__(start * factor)
        self.factor = factor

    def step(self, k):
        return super().step(k) * 2

    @property
    def twice(self):
        return self.start * 2


class Chain:
    def __init__(self, opts, f):
        self.links = [Doubler(i, f) for i in range(opts.width)]
        self.extra = Counter(f) if opts.shift else None
        self.gain = opts.gain

    def total(self, k):
        s = 0
        for link in self.links:
            s += link.step(k)
        if self.extra is not None:
            s += self.extra.step(k)
        return s * self.gain


def doubler(start: int, factor: int, k: int):
    d = Doubler(start, factor)
    return d.step(k), d.twice, d


def chain(f: int, k: int, shift: bool):
    c = Chain(Opts(width=3, shift=shift), f)
    return c.total(k), c


def scaled(gain: float, k: int):
    c = Chain(Opts(gain=gain), 2)
    return c.total(k)


if __name__ == "__main__":
    total, c = chain(2, 1, True)
    reveal_type(c.links[2])  # expect-type: Doubler{start: i64=4, factor: i64=2}
    assert total == chain(2, 1, True)[0]
