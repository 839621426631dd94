# Functions passed as arguments and returned as results.
from typing import reveal_type


def apply(f, x):
    return f(x)


def twice(f, x):
    return f(f(x))


def compose(f, g):
    def h(x):
        return f(g(x))
    return h


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def main():
    reveal_type(apply(inc, 5))  # expect-type: i64=6
    reveal_type(twice(dbl, 3))  # expect-type: i64=12
    reveal_type(compose(inc, dbl)(10))  # expect-type: i64=21
    reveal_type(compose(dbl, inc)(10))  # expect-type: i64=22
    reveal_type(apply(dbl, 'ab'))  # expect-type: str='abab'
    reveal_type(twice(compose(inc, inc), 0))  # expect-type: i64=4
    return 0


def run(n: int) -> int:
    r = twice(inc, n)  # expect-type: i64
    return r
