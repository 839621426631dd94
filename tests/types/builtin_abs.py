# abs() of numbers: bool becomes int.
from typing import reveal_type


def main():
    reveal_type(abs(-3))  # expect-type: i64=3
    reveal_type(abs(3))  # expect-type: i64=3
    reveal_type(abs(-2.5))  # expect-type: f64=2.5
    reveal_type(abs(True))  # expect-type: i64=1
    reveal_type(abs(0))  # expect-type: i64=0
    reveal_type(abs(-0.0))  # expect-type: f64=0.0
    return 0


def magnitude(n: int, x: float) -> float:
    reveal_type(abs(n))  # expect-type: i64
    reveal_type(abs(x))  # expect-type: f64
    return abs(n) + abs(x)
