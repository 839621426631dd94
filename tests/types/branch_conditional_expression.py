# x if c else y: one branch when c is known, both joined when not.
from typing import reveal_type


def main():
    reveal_type(1 if True else 2)  # expect-type: i64=1
    reveal_type('a' if 0 else 'b')  # expect-type: str='b'
    reveal_type((1, 2) if () else None)  # expect-type: none
    n = 5
    reveal_type(n * 2 if n > 3 else n)  # expect-type: i64=10
    return 0


def absval(x: float) -> float:
    r = x if x >= 0 else -x  # expect-type: f64
    return r


def bad(x: float) -> float:
    r = x if x >= 0 else 0  # expect-error: type-mismatch
    return 0.0
