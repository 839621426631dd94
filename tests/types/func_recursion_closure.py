# Recursion through a nested closure that captures an enclosing value.
from typing import reveal_type


def sum_to(n):
    def go(k, acc):
        if k == 0:
            return acc
        return go(k - 1, acc + k)
    return go(n, 0)


def power_of(base):
    def go(e):
        if e == 0:
            return 1
        return base * go(e - 1)
    return go


def main():
    reveal_type(sum_to(4))  # expect-type: i64=10
    reveal_type(power_of(3)(4))  # expect-type: i64=81
    reveal_type(power_of(0.5)(2))  # expect-type: f64=0.25
    return 0


def sum_to_any(n: int) -> int:
    r = sum_to(n)  # expect-type: i64
    return r
