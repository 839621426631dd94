# Nested undetermined branches join level by level.
from typing import reveal_type


def classify(a: int, b: int) -> str:
    if a > 0:
        if b > 0:
            r = 'both'
        else:
            r = 'a'
    elif b > 0:
        r = 'b'
    else:
        r = 'none'
    reveal_type(r)  # expect-type: str
    return r


def quadrant(x: float, y: float) -> int:
    q = 0
    if x >= 0:
        q = 1 if y >= 0 else 4
    else:
        q = 2 if y >= 0 else 3
    reveal_type(q)  # expect-type: i64
    return q
