# A known negative exponent in int ** int is an error (DSL rule: the result
# must be an int); a float operand makes it fine.
from typing import reveal_type


def main():
    a = 2 ** -1  # expect-error: type-mismatch
    e = -3
    b = 10 ** e  # expect-error: type-mismatch
    c = 2.0 ** e  # expect-type: f64=0.125
    d = 2 ** -1.0  # expect-type: f64=0.5
    return c + d


def scaled(n: int) -> int:
    return n ** -2  # expect-error: type-mismatch
