# for over a tuple of known length whose items are only known by type.
from typing import reveal_type


def describe(t: tuple[int, str, float]) -> int:
    n = 0
    for x in t:
        n += 1
    reveal_type(n)  # expect-type: i64=3
    for x in t:
        reveal_type(x)  # expect-type: f64 | i64 | str
    return n


def total(t: tuple[int, int, int]) -> int:
    s = 0
    for i, x in enumerate(t):
        if x > 0:
            s += x
    reveal_type(s)  # expect-type: i64
    return s
