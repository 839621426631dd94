# A recursion on an unknown int can still have a constant result.
from typing import reveal_type


def countdown(n: int) -> int:
    if n <= 0:
        return 0
    return countdown(n - 1)


def main():
    return 0


def use(n: int) -> int:
    r = countdown(n)  # expect-type: i64=0
    s = countdown(5)  # expect-type: i64=0
    return r + s


def pow2(n: int) -> int:
    if n <= 0:
        return 1
    r = 2 * pow2(n - 1)  # expect-type: i64
    return r
