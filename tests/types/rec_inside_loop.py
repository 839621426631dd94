# A recursion whose body loops, with constant arguments.
from typing import reveal_type


def perms(n):
    if n <= 1:
        return 1
    total = 0
    for i in range(n):
        total += perms(n - 1)
    return total


def subsets(t):
    if len(t) == 0:
        return 1
    return 2 * subsets(t[1:])


def main():
    reveal_type(perms(4))  # expect-type: i64=24
    reveal_type(subsets((1, 'a', 2.5)))  # expect-type: i64=8
    return 0


def perms_any(n: int) -> int:
    r = perms(n)  # expect-type: i64
    return r
