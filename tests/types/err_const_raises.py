# An operation on constants that always raises ends its path: reported as
# no-return at the operation (CPython raises there), the result is bottom.
from typing import reveal_type


def div():
    return 1 / 0  # expect-error: no-return


def floordiv(x: int):
    return x // 0  # expect-error: no-return


def modulo(x: float):
    return x % 0.0  # expect-error: no-return


def overflow():
    return 2.0 ** 10000  # expect-error: no-return


def shift(x: int):
    return x << -1  # expect-error: no-return


def guarded(n: int):
    if n == 0:
        return 0.0
    return 1 / n


def main():
    reveal_type(guarded(0))  # expect-type: f64=0.0
    reveal_type(0 and 1 // 0)  # expect-type: i64=0
    return 0
