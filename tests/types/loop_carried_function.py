# A function value carried around a loop.
from typing import reveal_type


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def main():
    f = inc
    x = 1
    for i in range(3):
        x = f(x)
        f = dbl
    reveal_type(x)  # expect-type: i64=8
    reveal_type(f)  # expect-type: function(dbl)
    return x


def apply_n(n: int) -> int:
    f = inc
    x = 1
    for i in range(n):
        x = f(x)
        f = dbl
    reveal_type(x)  # expect-type: i64
    return x
