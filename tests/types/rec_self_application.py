# A function that receives itself as an argument and calls it.
from typing import reveal_type


def fact(f, n):
    if n == 0:
        return 1
    return n * f(f, n - 1)


def main():
    reveal_type(fact(fact, 5))  # expect-type: i64=120
    return 0


def fact_any(n: int) -> int:
    r = fact(fact, n)  # expect-type: i64
    return r
