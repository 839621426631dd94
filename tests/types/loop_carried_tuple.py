# A tuple carried around a loop.
from typing import reveal_type


def main():
    acc = (0, 1)
    for _ in range(5):
        acc = (acc[1], acc[0] + acc[1])
    reveal_type(acc)  # expect-type: tuple[i64=5, i64=8]
    return acc[0]


def fib_iter(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    reveal_type((a, b))  # expect-type: tuple[i64, i64]
    return a
