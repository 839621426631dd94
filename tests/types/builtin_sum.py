# sum() adds from its start value (0 by default).
from typing import reveal_type


def main():
    reveal_type(sum((1, 2, 3)))  # expect-type: i64=6
    reveal_type(sum((1.5, 2)))  # expect-type: f64=3.5
    reveal_type(sum((1, 2), 10))  # expect-type: i64=13
    reveal_type(sum(()))  # expect-type: i64=0
    reveal_type(sum((True, True, False)))  # expect-type: i64=2
    reveal_type(sum((0.1, 0.2)))  # expect-type: f64=0.30000000000000004
    reveal_type(sum([1, 2, 3]))  # expect-type: i64
    reveal_type(sum((), 0.5))  # expect-type: f64=0.5
    return 0


def total(t: tuple[int, int, int], x: float) -> float:
    reveal_type(sum(t))  # expect-type: i64
    reveal_type(sum(t, x))  # expect-type: f64
    return sum(t, x)
