# A bool of unknown value: arithmetic makes ints, & | ^ of bools stay bool.
from typing import reveal_type


def flags(p: bool, q: bool) -> tuple[int, bool, bool, int, float, bool]:
    a = p + q  # expect-type: i64
    b = p & q  # expect-type: bool
    c = p | True  # expect-type: bool
    d = -p  # expect-type: i64
    e = p * 2.5  # expect-type: f64
    f = not p  # expect-type: bool
    reveal_type(p ^ q)  # expect-type: bool
    reveal_type(~p)  # expect-type: i64
    reveal_type(p & 1)  # expect-type: i64
    return (a, b, c, d, e, f)
