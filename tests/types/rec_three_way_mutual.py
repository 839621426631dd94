# Three functions calling each other in a cycle.
from typing import reveal_type


def a(n):
    if n <= 0:
        return 0
    return b(n - 1) + 1


def b(n):
    if n <= 0:
        return 0
    return c(n - 1) + 2


def c(n):
    if n <= 0:
        return 0
    return a(n - 1) + 3


def main():
    reveal_type(a(6))  # expect-type: i64=12
    reveal_type(b(4))  # expect-type: i64=8
    reveal_type(c(0))  # expect-type: i64=0
    return 0


def a_any(n: int) -> int:
    r = a(n)  # expect-type: i64
    return r
