# Loops whose values settle only after several trips: the inferred value
# must cover every trip, not just the first ones.
from typing import reveal_type


def shift(n: int) -> int:
    x = 0
    y = 0
    i = 0
    while i < n:
        x = y
        y = 1
        i += 1
    reveal_type(x)  # expect-type: i64
    return x


def toggle(n: int) -> bool:
    b = False
    for _ in range(n):
        b = not b
    reveal_type(b)  # expect-type: bool
    return b


def late_tuple(n: int) -> tuple[int, int]:
    t = (0, 0)
    for _ in range(n):
        t = (t[1], 1)
    reveal_type(t)  # expect-type: tuple[i64, i64]
    return t


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def late_function(n: int) -> int:
    f = inc
    g = inc
    for _ in range(n):
        f = g
        g = dbl
    r = f(10)  # expect-type: i64
    return r
