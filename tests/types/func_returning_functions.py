# A function chosen by a known argument is known exactly.
from typing import reveal_type


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def choose(k):
    if k:
        return inc
    return dbl


def main():
    reveal_type(choose(True)(3))  # expect-type: i64=4
    reveal_type(choose(False)(3))  # expect-type: i64=6
    reveal_type(choose(False))  # expect-type: function(dbl)
    reveal_type(choose(1))  # expect-type: function(inc)
    return 0
