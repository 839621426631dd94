# CPython's float floor division and modulo, including rounding surprises.
from typing import reveal_type


def main():
    reveal_type(-0.0 // 1)  # expect-type: f64=-0.0
    reveal_type(5.0 // 0.1)  # expect-type: f64=49.0
    reveal_type(5.0 % 0.1)  # expect-type: f64=0.09999999999999973
    reveal_type(1e308 * 10)  # expect-type: f64=inf
    reveal_type(int(-0.5))  # expect-type: i64=0
    reveal_type(int(1e20))  # expect-type: i64
    reveal_type(9007199254740993 == 9007199254740992.0)  # expect-type: bool=False
    reveal_type(9007199254740993 > 9007199254740992.0)  # expect-type: bool=True
    reveal_type(-7 // 2.0)  # expect-type: f64=-4.0
    return 0
