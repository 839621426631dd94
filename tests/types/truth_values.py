# bool() of tuples (by length), None, numbers and strings.
from typing import reveal_type


def main():
    reveal_type(bool(()))  # expect-type: bool=False
    reveal_type(bool((0,)))  # expect-type: bool=True
    reveal_type(bool((1, 2)))  # expect-type: bool=True
    reveal_type(bool(None))  # expect-type: bool=False
    reveal_type(bool(0))  # expect-type: bool=False
    reveal_type(bool(-1))  # expect-type: bool=True
    reveal_type(bool(0.0))  # expect-type: bool=False
    reveal_type(bool(0.1))  # expect-type: bool=True
    reveal_type(bool(''))  # expect-type: bool=False
    reveal_type(bool('0'))  # expect-type: bool=True
    reveal_type(bool(True))  # expect-type: bool=True
    reveal_type(bool())  # expect-type: bool=False
    return 0


def truth(n: int, t: tuple[int, int]) -> bool:
    reveal_type(bool(n))  # expect-type: bool
    reveal_type(bool(t))  # expect-type: bool=True
    return bool(n)
