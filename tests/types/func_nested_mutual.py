# Nested functions may call each other (both are bound before any call).
from typing import reveal_type


def parity(n):
    def is_even(k):
        if k == 0:
            return True
        return is_odd(k - 1)

    def is_odd(k):
        if k == 0:
            return False
        return is_even(k - 1)
    return is_even(n)


def main():
    reveal_type(parity(6))  # expect-type: bool=True
    reveal_type(parity(3))  # expect-type: bool=False
    return 0


def parity_any(n: int) -> bool:
    r = parity(n)  # expect-type: bool
    return r
