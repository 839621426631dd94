# Mutual recursion passing tuples back and forth.
from typing import reveal_type


def evens(t):
    if len(t) == 0:
        return ()
    return (t[0],) + odds(t[1:])


def odds(t):
    if len(t) == 0:
        return ()
    return evens(t[1:])


def main():
    reveal_type(evens((1, 2, 3, 4, 5)))  # expect-type: tuple[i64=1, i64=3, i64=5]
    reveal_type(odds(('a', 'b', 'c')))  # expect-type: tuple[str='b']
    return 0


def evens_any(t: tuple[int, int, int, int]) -> tuple[int, int]:
    r = evens(t)  # expect-type: tuple[i64, i64]
    return r
