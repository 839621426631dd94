# args: --max-contexts 4
# Recursion with constants past the context budget: arguments are widened
# to their types (a budget warning) and the result is the broad type.
from typing import reveal_type


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)  # expect-warning: budget


def main():
    reveal_type(fib(10))  # expect-type: i64
    return 0
