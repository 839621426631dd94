# Mutual recursion between two module functions.
from typing import reveal_type


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def main():
    reveal_type(is_even(10))  # expect-type: bool=True
    reveal_type(is_odd(7))  # expect-type: bool=True
    reveal_type(is_even(3))  # expect-type: bool=False
    return 0


def even_any(n: int) -> bool:
    r = is_even(n)  # expect-type: bool
    return r
