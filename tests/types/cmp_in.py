# `in` and `not in` on tuples, strings and ranges.
from typing import reveal_type


def main():
    reveal_type(2 in (1, 2, 3))  # expect-type: bool=True
    reveal_type(5 in (1, 2))  # expect-type: bool=False
    reveal_type(1.0 in (1, 2))  # expect-type: bool=True
    reveal_type((1, 2) in ((1, 2), (3, 4)))  # expect-type: bool=True
    reveal_type('b' in 'abc')  # expect-type: bool=True
    reveal_type('bd' in 'abcd')  # expect-type: bool=False
    reveal_type('' in 'abc')  # expect-type: bool=True
    reveal_type(3 in range(5))  # expect-type: bool=True
    reveal_type(7 in range(0, 10, 2))  # expect-type: bool=False
    reveal_type(2 not in (1, 3))  # expect-type: bool=True
    reveal_type('a' not in 'abc')  # expect-type: bool=False
    reveal_type(None in (1, None))  # expect-type: bool=True
    return 0


def member(n: int, s: str) -> bool:
    reveal_type(n in (1, 2))  # expect-type: bool
    reveal_type(s in 'abc')  # expect-type: bool
    reveal_type('x' in (1, 2))  # expect-type: bool=False
    return n in (1, 2, 3)
