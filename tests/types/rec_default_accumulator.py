# Recursion carrying an accumulator through a default parameter.
from typing import reveal_type


def count(n, acc=0):
    if n == 0:
        return acc
    return count(n - 1, acc + 2)


def main():
    reveal_type(count(5))  # expect-type: i64=10
    reveal_type(count(3, 100))  # expect-type: i64=106
    return 0


def count_any(n: int) -> int:
    r = count(n)  # expect-type: i64
    return r
