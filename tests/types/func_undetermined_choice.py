# A function chosen by an unknown condition: calling it joins the results.
from typing import reveal_type


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def half(x):
    return x / 2


def same_type(c: bool) -> int:
    g = inc if c else dbl
    r = g(3)  # expect-type: i64
    return r


def mixed(c: bool) -> int:
    h = inc if c else half
    r = h(3)  # expect-error: type-mismatch
    return 0
