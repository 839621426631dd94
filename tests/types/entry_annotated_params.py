# Annotations fix the abstract value of an entry's parameters.
from typing import reveal_type


def describe(n: int, x: float, b: bool, s: str, t: tuple[int, str], e: tuple[()]) -> tuple[int, float]:
    reveal_type(n)  # expect-type: i64
    reveal_type(x)  # expect-type: f64
    reveal_type(b)  # expect-type: bool
    reveal_type(s)  # expect-type: str
    reveal_type(t)  # expect-type: tuple[i64, str]
    reveal_type(e)  # expect-type: tuple[()]
    reveal_type(t[0] + n)  # expect-type: i64
    return (n, x)


def nothing(z: None) -> None:
    reveal_type(z)  # expect-type: none
    return z
