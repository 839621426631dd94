# A recursion that wraps its argument in a tuple on every call: exact when
# the depth is known; with an unknown depth the argument has no single type.
from typing import reveal_type


def wrap(x, n):
    if n == 0:
        return x
    return wrap((x,), n - 1)  # expect-error: type-mismatch


def main():
    reveal_type(wrap(0, 3))  # expect-type: tuple[tuple[tuple[i64=0]]]
    reveal_type(wrap('s', 0))  # expect-type: str='s'
    return 0


def wrap_any(n: int) -> int:
    w = wrap(0, n)
    return 0
