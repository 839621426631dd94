# ** with values only known by type.
from typing import reveal_type


def powers(a: int, x: float) -> tuple[int, float, float]:
    p = a ** 2  # expect-type: i64
    q = x ** 2  # expect-type: f64
    r = x ** a  # expect-type: f64
    reveal_type(a ** 3)  # expect-type: i64
    reveal_type(2 ** 0.5 * x)  # expect-type: f64
    return (p, q, r)
