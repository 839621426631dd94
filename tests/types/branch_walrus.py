# The walrus operator binds inside a condition.
from typing import reveal_type


def check(n):
    if (m := n * 2) > 10:
        return m
    return -m


def main():
    reveal_type(check(6))  # expect-type: i64=12
    reveal_type(check(2))  # expect-type: i64=-4
    return 0


def check_any(n: int) -> int:
    r = check(n)  # expect-type: i64
    return r
