# Recursion that returns tuples, unpacked by the caller.
from typing import reveal_type


def fibpair(n):
    if n == 0:
        return (0, 1)
    a, b = fibpair(n - 1)
    return (b, a + b)


def divmod_rec(a, b):
    if a < b:
        return (0, a)
    q, r = divmod_rec(a - b, b)
    return (q + 1, r)


def main():
    reveal_type(fibpair(10))  # expect-type: tuple[i64=55, i64=89]
    reveal_type(divmod_rec(17, 5))  # expect-type: tuple[i64=3, i64=2]
    return 0


def fibpair_any(n: int) -> tuple[int, int]:
    r = fibpair(n)  # expect-type: tuple[i64, i64]
    return r
