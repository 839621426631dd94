# `while t:` on a tuple that shrinks: each trip is known, so the count is exact.
from typing import reveal_type


def count(t):
    n = 0
    while t:
        n += 1
        t = t[1:]
    return n


def main():
    reveal_type(count((1, 2, 3)))  # expect-type: i64=3
    reveal_type(count(()))  # expect-type: i64=0
    reveal_type(count(('a', 2.5)))  # expect-type: i64=2
    return 0
