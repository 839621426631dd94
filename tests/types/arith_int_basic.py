# Integer arithmetic folds to constants (DSL rule: 64-bit ints).
from typing import reveal_type


def main():
    reveal_type(1 + 2)  # expect-type: i64=3
    reveal_type(10 - 3 * 2)  # expect-type: i64=4
    reveal_type(7 * -6)  # expect-type: i64=-42
    reveal_type((2 + 3) * 4)  # expect-type: i64=20
    reveal_type(0 - 0)  # expect-type: i64=0
    x = 5
    x += 10  # expect-type: i64=15
    x -= 20  # expect-type: i64=-5
    x *= -3  # expect-type: i64=15
    return x
