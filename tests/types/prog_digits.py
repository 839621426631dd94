# Digit manipulation with // and %.
from typing import reveal_type


def digit_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


def reverse_digits(n):
    r = 0
    while n > 0:
        r = r * 10 + n % 10
        n = n // 10
    return r


def main():
    reveal_type(digit_sum(12345))  # expect-type: i64=15
    reveal_type(digit_sum(0))  # expect-type: i64=0
    reveal_type(reverse_digits(1234))  # expect-type: i64=4321
    return 0


def digits_any(n: int) -> tuple[int, int]:
    r = (digit_sum(n), reverse_digits(n))  # expect-type: tuple[i64, i64]
    return r
