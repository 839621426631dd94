# A deep recursion on constants (hundreds of nested calls) stays exact.
from typing import reveal_type


def sum_down(n):
    if n == 0:
        return 0
    return n + sum_down(n - 1)


def build(n):
    if n == 0:
        return ()
    return build(n - 1) + (n - 1,)


def main():
    reveal_type(sum_down(300))  # expect-type: i64=45150
    reveal_type(build(4))  # expect-type: tuple[i64=0, i64=1, i64=2, i64=3]
    return 0
