# Keyword-only parameters (after * or *args).
from typing import reveal_type


def scale(x, *, factor=2):
    return x * factor


def total(*xs, start=0):
    return start + sum(xs)


def main():
    reveal_type(scale(3))  # expect-type: i64=6
    reveal_type(scale(3, factor=5))  # expect-type: i64=15
    reveal_type(total(1, 2, start=10))  # expect-type: i64=13
    reveal_type(total(1, 2))  # expect-type: i64=3
    bad = scale(3, 4)  # expect-error: arity
    return 0
