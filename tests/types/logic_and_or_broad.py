# and/or on values of unknown truth join both operands (same type: fine).
from typing import reveal_type


def logic(a: int, b: int, p: bool, q: bool) -> tuple[int, int, bool, bool, bool]:
    x = a or b  # expect-type: i64
    y = a and 5  # expect-type: i64
    u = p and q  # expect-type: bool
    v = p or False  # expect-type: bool
    w = a > 0 and b > 0  # expect-type: bool
    reveal_type(p and True)  # expect-type: bool
    reveal_type(a or a)  # expect-type: i64
    return (x, y, u, v, w)
