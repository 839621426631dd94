# Ackermann's function: deep, non-primitive recursion on constants.
from typing import reveal_type


def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))


def main():
    reveal_type(ack(0, 5))  # expect-type: i64=6
    reveal_type(ack(1, 1))  # expect-type: i64=3
    reveal_type(ack(2, 3))  # expect-type: i64=9
    return 0


def ack_any(m: int, n: int) -> int:
    r = ack(m, n)  # expect-type: i64
    return r
