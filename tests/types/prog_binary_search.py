# Binary search in a constant tuple.
from typing import reveal_type

DATA = (1, 3, 5, 7, 9, 11)


def bsearch(t, v):
    lo = 0
    hi = len(t) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if t[mid] == v:
            return mid
        if t[mid] < v:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def main():
    reveal_type(bsearch(DATA, 7))  # expect-type: i64=3
    reveal_type(bsearch(DATA, 4))  # expect-type: i64=-1
    reveal_type(bsearch(DATA, 1))  # expect-type: i64=0
    return 0


def find_any(v: int) -> int:
    r = bsearch(DATA, v)  # expect-type: i64
    return r
