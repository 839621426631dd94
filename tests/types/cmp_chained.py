# Chained comparisons: a < b < c is (a < b) and (b < c), b evaluated once.
from typing import reveal_type


def main():
    reveal_type(1 < 2 < 3)  # expect-type: bool=True
    reveal_type(3 > 2 > 2)  # expect-type: bool=False
    reveal_type(1 < 3 > 2)  # expect-type: bool=True
    reveal_type(1 == 1 < 2)  # expect-type: bool=True
    reveal_type(5 < 2 < 10)  # expect-type: bool=False
    reveal_type(0 <= 0 <= 0 <= 0)  # expect-type: bool=True
    reveal_type(1 < 2 < 3 < 2)  # expect-type: bool=False
    return 0


def in_range(n: int) -> bool:
    reveal_type(0 <= n < 10)  # expect-type: bool
    reveal_type(0 < 1 < n)  # expect-type: bool
    reveal_type(2 < 1 < n)  # expect-type: bool=False
    return 0 <= n < 10
