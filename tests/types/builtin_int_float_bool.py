# int(), float() and bool() conversions fold on constants.
from typing import reveal_type


def main():
    reveal_type(int(2.7))  # expect-type: i64=2
    reveal_type(int(-2.7))  # expect-type: i64=-2
    reveal_type(int('42'))  # expect-type: i64=42
    reveal_type(int('-7'))  # expect-type: i64=-7
    reveal_type(int(True))  # expect-type: i64=1
    reveal_type(int('ff', 16))  # expect-type: i64=255
    reveal_type(int())  # expect-type: i64=0
    reveal_type(float(3))  # expect-type: f64=3.0
    reveal_type(float('2.5'))  # expect-type: f64=2.5
    reveal_type(float(True))  # expect-type: f64=1.0
    reveal_type(float('1e3'))  # expect-type: f64=1000.0
    reveal_type(float())  # expect-type: f64=0.0
    reveal_type(bool(7))  # expect-type: bool=True
    return 0


def convert(n: int, x: float, s: str) -> tuple[int, float, int, bool]:
    a = int(x)  # expect-type: i64
    b = float(n)  # expect-type: f64
    c = int(n)  # expect-type: i64
    d = bool(s)  # expect-type: bool
    return (a, b, c, d)
