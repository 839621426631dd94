# Recursion on an unknown int: the fixpoint is the type.
from typing import reveal_type


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def fib_float(n: int) -> float:
    if n < 2:
        return 1.0
    r = fib_float(n - 1) + fib_float(n - 2)  # expect-type: f64
    return r


def main():
    reveal_type(fib)  # expect-type: function(fib)
    return 0


def use(n: int) -> int:
    r = fib(n) + 1  # expect-type: i64
    return r
