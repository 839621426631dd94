# min/max return one of their arguments unchanged (CPython: min(3, 5.0) is
# the int 3).  With unknown values either an int or a float may come back:
# a merge of different types, as for `a if a < x else x` (DSL rule).
from typing import reveal_type


def smaller(a: int, x: float) -> float:
    r = min(a, x)  # expect-error: type-mismatch
    return r


def largest(t: tuple[int, float]) -> float:
    r = max(t)  # expect-error: type-mismatch
    return r


def same_kind(a: int, b: int, x: float, y: float) -> tuple[int, float]:
    p = min(a, b)  # expect-type: i64
    q = max(x, y)  # expect-type: f64
    return (p, q)


def main():
    reveal_type(min(3, 5.0))  # expect-type: i64=3
    reveal_type(max((1, 2.5)))  # expect-type: f64=2.5
    return 0
