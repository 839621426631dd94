# Iterative gcd and lcm.
from typing import reveal_type


def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


def lcm(a, b):
    return a * b // gcd(a, b)


def main():
    reveal_type(lcm(4, 6))  # expect-type: i64=12
    reveal_type(gcd(1071, 462))  # expect-type: i64=21
    return 0


def lcm_any(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    r = lcm(a, b)  # expect-type: i64
    return r
