# `not` gives a bool from truthiness: tuples and lists of known length by
# length, None, numbers, strings.
from typing import reveal_type


def main():
    reveal_type(not ())  # expect-type: bool=True
    reveal_type(not (0,))  # expect-type: bool=False
    reveal_type(not None)  # expect-type: bool=True
    reveal_type(not '')  # expect-type: bool=True
    reveal_type(not 'a')  # expect-type: bool=False
    reveal_type(not 0.0)  # expect-type: bool=True
    reveal_type(not -1)  # expect-type: bool=False
    reveal_type(not [1])  # expect-type: bool=False
    reveal_type(not [])  # expect-type: bool=True
    return 0


def negate(s: str, n: int) -> bool:
    reveal_type(not s)  # expect-type: bool
    reveal_type(not (s, n))  # expect-type: bool=False
    return not n
