# Functions stored in tuples and applied in a loop.
from typing import reveal_type


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def main():
    ops = (inc, dbl)
    reveal_type(ops[0](5))  # expect-type: i64=6
    reveal_type(ops[1](5))  # expect-type: i64=10
    x = 1
    for f in ops:
        x = f(x)
    reveal_type(x)  # expect-type: i64=4
    reveal_type(ops[-1])  # expect-type: function(dbl)
    return x
