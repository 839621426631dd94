# A constant recursion that never reaches its base case (it would raise
# RecursionError in CPython) runs into the context budget: a warning, then
# the widened analysis finishes.
from typing import reveal_type


def down(n):
    if n == 0:
        return 0
    return down(n - 1) + 1  # expect-warning: budget


def main():
    reveal_type(down(-1))  # expect-type: i64
    return 0
