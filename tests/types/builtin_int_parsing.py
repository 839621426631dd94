# int() and float() of strings follow CPython's literal rules.
from typing import reveal_type


def main():
    reveal_type(int('1_000'))  # expect-type: i64=1000
    reveal_type(int('010'))  # expect-type: i64=10
    reveal_type(int('0x10', 16))  # expect-type: i64=16
    reveal_type(int('0x10', 0))  # expect-type: i64=16
    reveal_type(int('-0b101', 0))  # expect-type: i64=-5
    reveal_type(int('z', 36))  # expect-type: i64=35
    reveal_type(float('1_0.5'))  # expect-type: f64=10.5
    reveal_type(float('-1.5e2'))  # expect-type: f64=-150.0
    reveal_type(float(' 2.5 '))  # expect-type: f64=2.5
    return 0
