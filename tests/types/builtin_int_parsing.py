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
    reveal_type(int(' 5\t'))  # expect-type: i64=5
    return 0


def separators(flag: bool):
    # int() and float() strip ASCII whitespace but not the separators
    # \x1c-\x1f that str.strip() removes: int('\x1c5') raises, so only
    # the other path gives a value (and the call is reported: it always
    # raises)
    v = int('\x1c5') if flag else 0  # expect-error: no-return
    reveal_type(v)  # expect-type: i64=0
    w = float('2.5\x1f') if flag else 1.0  # expect-error: no-return
    reveal_type(w)  # expect-type: f64=1.0
    return v, w
