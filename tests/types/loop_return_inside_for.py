# return from inside a for loop, with a fallback after it.
from typing import reveal_type


def index_of(t, v):
    for i, x in enumerate(t):
        if x == v:
            return i
    return -1


def main():
    reveal_type(index_of((5, 6, 7), 6))  # expect-type: i64=1
    reveal_type(index_of((5, 6), 9))  # expect-type: i64=-1
    reveal_type(index_of(('a', 'b'), 'a'))  # expect-type: i64=0
    return 0


def index_any(t: tuple[int, int, int], v: int) -> int:
    r = index_of(t, v)  # expect-type: i64
    return r
