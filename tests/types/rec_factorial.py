# Factorial: exact while it fits in 64 bits, then the broad i64.
from typing import reveal_type


def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def main():
    reveal_type(fact(5))  # expect-type: i64=120
    reveal_type(fact(0))  # expect-type: i64=1
    reveal_type(fact(20))  # expect-type: i64=2432902008176640000
    reveal_type(fact(21))  # expect-type: i64
    return 0


def fact_any(n: int) -> int:
    r = fact(n)  # expect-type: i64
    return r
