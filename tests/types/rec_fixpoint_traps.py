# Recursions whose arguments or results change only at depth: the fixpoint
# must cover every depth.
from typing import reveal_type


def r2(n, a, b):
    if n <= 0:
        return a
    return r2(n - 1, b, 7)


def r2_any(n: int) -> int:
    r = r2(n, 0, 0)  # expect-type: i64
    return r


def f(n: int) -> int:
    if n <= 0:
        return 1
    return g(n - 1) * 2


def g(n: int) -> int:
    if n <= 0:
        return 3
    return f(n - 1) + 1


def fg(n: int) -> int:
    r = f(n)  # expect-type: i64
    return r


def main():
    reveal_type(r2(2, 0, 0))  # expect-type: i64=7
    reveal_type(f(3))  # expect-type: i64=14
    return 0
