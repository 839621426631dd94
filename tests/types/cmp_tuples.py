# Tuples compare item by item (lexicographically for orderings).
from typing import reveal_type


def main():
    reveal_type((1, 2) < (1, 3))  # expect-type: bool=True
    reveal_type((1, 2) < (1, 2, 0))  # expect-type: bool=True
    reveal_type((2,) > (1, 9))  # expect-type: bool=True
    reveal_type(() < (1,))  # expect-type: bool=True
    reveal_type((1, 'a') == (1, 'a'))  # expect-type: bool=True
    reveal_type((1, 2) != (2, 1))  # expect-type: bool=True
    reveal_type((1, 2) == (1, 2.0))  # expect-type: bool=True
    reveal_type((1, (2, 3)) == (1, (2, 4)))  # expect-type: bool=False
    reveal_type((1, 2) == (1, 2, 3))  # expect-type: bool=False
    return 0


def compare(a: int, b: int) -> bool:
    reveal_type((a, 1) < (b, 2))  # expect-type: bool
    reveal_type((1, a) < (2, b))  # expect-type: bool=True
    reveal_type((a,) == (b,))  # expect-type: bool
    return (a, b) < (b, a)
