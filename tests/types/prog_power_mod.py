# Fast modular exponentiation.
from typing import reveal_type


def pow_mod(b, e, m):
    result = 1
    b = b % m
    while e > 0:
        if e % 2 == 1:
            result = result * b % m
        b = b * b % m
        e //= 2
    return result


def main():
    reveal_type(pow_mod(2, 10, 1000))  # expect-type: i64=24
    reveal_type(pow_mod(3, 200, 13))  # expect-type: i64=9
    reveal_type(pow_mod(7, 0, 5))  # expect-type: i64=1
    return 0


def pow_mod_any(b: int, e: int) -> int:
    r = pow_mod(b, e, 97)  # expect-type: i64
    return r
