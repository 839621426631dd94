# break and continue inside a while loop.
from typing import reveal_type


def first_odd_square_above(limit):
    i = 0
    found = -1
    while i < 10:
        i += 1
        if i % 2 == 0:
            continue
        if i * i > limit:
            found = i
            break
    return (found, i)


def main():
    reveal_type(first_odd_square_above(20))  # expect-type: tuple[i64=5, i64=5]
    reveal_type(first_odd_square_above(1000))  # expect-type: tuple[i64=-1, i64=10]
    return 0


def search(limit: int) -> tuple[int, int]:
    r = first_odd_square_above(limit)  # expect-type: tuple[i64, i64]
    return r
