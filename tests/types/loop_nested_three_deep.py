# Three nested for loops with constant bounds.
from typing import reveal_type


def main():
    count = 0
    acc = 0
    for i in range(2):
        for j in range(3):
            for k in range(4):
                count += 1
                acc += i * j * k
    reveal_type(count)  # expect-type: i64=24
    reveal_type(acc)  # expect-type: i64=18
    return count


def cube(n: int) -> int:
    count = 0
    for i in range(n):
        for j in range(n):
            for k in range(n):
                count += 1
    reveal_type(count)  # expect-type: i64
    return count
