# isinstance is decided from the kind (bool is a subclass of int, as in CPython).
from typing import reveal_type


def main():
    reveal_type(isinstance(3, int))  # expect-type: bool=True
    reveal_type(isinstance(3, float))  # expect-type: bool=False
    reveal_type(isinstance(True, int))  # expect-type: bool=True
    reveal_type(isinstance(3, bool))  # expect-type: bool=False
    reveal_type(isinstance(2.5, float))  # expect-type: bool=True
    reveal_type(isinstance('a', str))  # expect-type: bool=True
    reveal_type(isinstance((1,), tuple))  # expect-type: bool=True
    reveal_type(isinstance(None, int))  # expect-type: bool=False
    reveal_type(isinstance(3, (int, float)))  # expect-type: bool=True
    reveal_type(isinstance('a', (int, float)))  # expect-type: bool=False
    reveal_type(isinstance([1], list))  # expect-type: bool=True
    reveal_type(isinstance((1, 2), int))  # expect-type: bool=False
    return 0


def kinds(n: int, x: float, t: tuple[int, str]) -> bool:
    reveal_type(isinstance(n, int))  # expect-type: bool=True
    reveal_type(isinstance(n, str))  # expect-type: bool=False
    reveal_type(isinstance(x, float))  # expect-type: bool=True
    reveal_type(isinstance(t, tuple))  # expect-type: bool=True
    reveal_type(isinstance(t[1], str))  # expect-type: bool=True
    return isinstance(n, float)
