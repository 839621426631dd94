# Arithmetic on ints whose values are not known: the types still follow
# CPython (/ gives float, // and % stay int).
from typing import reveal_type


def ops(a: int, b: int) -> tuple[int, float, int, int, bool]:
    s = a + b  # expect-type: i64
    q = a / b  # expect-type: f64
    f = a // b  # expect-type: i64
    m = a % b  # expect-type: i64
    reveal_type(-a)  # expect-type: i64
    reveal_type(a & b)  # expect-type: i64
    reveal_type(a << 2)  # expect-type: i64
    c = a < b  # expect-type: bool
    reveal_type(a * 2 + 1)  # expect-type: i64
    return (s, q, f, m, c)
