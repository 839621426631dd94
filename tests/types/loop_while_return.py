# return from inside a while True loop.
from typing import reveal_type


def first_square_above(limit):
    i = 0
    while True:
        if i * i > limit:
            return i
        i += 1


def main():
    reveal_type(first_square_above(50))  # expect-type: i64=8
    reveal_type(first_square_above(-1))  # expect-type: i64=0
    return 0


def isqrt_above(n: int) -> int:
    r = first_square_above(n)  # expect-type: i64
    return r
