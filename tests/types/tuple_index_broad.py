# An unknown index into a tuple: its items must have one type.
from typing import reveal_type


def pick(t: tuple[int, int, int], i: int) -> int:
    reveal_type(t[i])  # expect-type: i64
    reveal_type((1, 2, 3)[i])  # expect-type: i64
    return t[i]


def pick_mixed(t: tuple[int, float], i: int) -> int:
    x = t[i]  # expect-error: type-mismatch
    return 0
