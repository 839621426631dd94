# range with an unknown bound: the loop runs an unknown number of times.
from typing import reveal_type


def sum_below(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    reveal_type(total)  # expect-type: i64
    return total


def sum_floats(n: int) -> float:
    acc = 0.0
    for i in range(1, n):
        acc += 1 / i
    reveal_type(acc)  # expect-type: f64
    return acc
