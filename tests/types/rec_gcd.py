# Euclid's algorithm, recursive.
from typing import reveal_type


def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


def main():
    reveal_type(gcd(48, 18))  # expect-type: i64=6
    reveal_type(gcd(17, 5))  # expect-type: i64=1
    reveal_type(gcd(0, 9))  # expect-type: i64=9
    reveal_type(gcd(7, 0))  # expect-type: i64=7
    return 0


def gcd_any(a: int, b: int) -> int:
    r = gcd(a, b)  # expect-type: i64
    return r
