# Insertion sort on tuples, recursively: the length is preserved even when
# the order of the items is unknown.
from typing import reveal_type


def insert(x, t):
    if len(t) == 0:
        return (x,)
    if x <= t[0]:
        return (x,) + t
    return (t[0],) + insert(x, t[1:])


def isort(t):
    if len(t) == 0:
        return ()
    return insert(t[0], isort(t[1:]))


def main():
    reveal_type(isort((3, 1, 2)))  # expect-type: tuple[i64=1, i64=2, i64=3]
    reveal_type(isort(()))  # expect-type: tuple[()]
    reveal_type(isort(('b', 'a')))  # expect-type: tuple[str='a', str='b']
    return 0


def isort_any(t: tuple[int, int, int]) -> tuple[int, int, int]:
    r = isort(t)  # expect-type: tuple[i64, i64, i64]
    return r
