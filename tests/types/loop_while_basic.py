# A while loop whose condition is known on every trip is unrolled exactly.
from typing import reveal_type


def main():
    i = 0
    total = 0
    while i < 5:
        total += i
        i += 1
    reveal_type(total)  # expect-type: i64=10
    reveal_type(i)  # expect-type: i64=5
    return total


def triangle(n: int) -> int:
    i = 0
    total = 0
    while i < n:
        i += 1
        total += i
    reveal_type(total)  # expect-type: i64
    return total
