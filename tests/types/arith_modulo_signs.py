# % takes the sign of the divisor, for ints and floats (CPython's divmod).
from typing import reveal_type


def main():
    reveal_type(7 % 3)  # expect-type: i64=1
    reveal_type(-7 % 3)  # expect-type: i64=2
    reveal_type(7 % -3)  # expect-type: i64=-2
    reveal_type(-7 % -3)  # expect-type: i64=-1
    reveal_type(-6 % 3)  # expect-type: i64=0
    reveal_type(7.5 % 2)  # expect-type: f64=1.5
    reveal_type(-7.5 % 2)  # expect-type: f64=0.5
    reveal_type(7.0 % -3)  # expect-type: f64=-2.0
    reveal_type(-6.0 % 3)  # expect-type: f64=0.0
    reveal_type(6.0 % -3)  # expect-type: f64=-0.0
    x = -17
    x %= 5  # expect-type: i64=3
    return x
