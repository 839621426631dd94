# Arithmetic mixing an unknown float and an unknown int.
from typing import reveal_type


def mix(x: float, n: int) -> tuple[float, float, float, float]:
    a = x + n  # expect-type: f64
    b = x // n  # expect-type: f64
    c = n % x  # expect-type: f64
    d = n / 2  # expect-type: f64
    reveal_type(-x)  # expect-type: f64
    reveal_type(x * 0)  # expect-type: f64
    reveal_type(x >= n)  # expect-type: bool
    return (a, b, c, d)
