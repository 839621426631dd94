# Recursion with constant arguments folds to the exact value.
from typing import reveal_type


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main():
    reveal_type(fib(10))  # expect-type: i64=55
    reveal_type(fib(0))  # expect-type: i64=0
    reveal_type(fib(1))  # expect-type: i64=1
    reveal_type(fib(20))  # expect-type: i64=6765
    return fib(10)
