# Longer expressions mixing all numeric kinds.
from typing import reveal_type


def main():
    reveal_type((1 + 2) * 3 - 4 / 2)  # expect-type: f64=7.0
    reveal_type(7 // 2 * 2 + 7 % 2)  # expect-type: i64=7
    reveal_type(2 ** 3 ** 0 + True)  # expect-type: i64=3
    reveal_type(-3 ** 2 + (-3) ** 2)  # expect-type: i64=0
    reveal_type(1 + 2 * 3 == 7 and 10 / 4 == 2.5)  # expect-type: bool=True
    reveal_type((5 > 3) + (2 > 1) * 10)  # expect-type: i64=11
    reveal_type(abs(-7) // 2 - min(3, 1.5))  # expect-type: f64=1.5
    return 0


def poly(x: float) -> float:
    r = 3 * x ** 2 - 2 * x + 1  # expect-type: f64
    return r
