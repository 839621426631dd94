# Keyword arguments of builtins that CPython accepts.
from typing import reveal_type


def main():
    r = print('a', 'b', sep='', end='')  # expect-type: none
    reveal_type(sum((1, 2), start=10))  # expect-type: i64=13
    n = 0
    for i, x in enumerate((5, 6), start=1):
        n += i * x
    reveal_type(n)  # expect-type: i64=17
    reveal_type(max((), default=0))  # expect-type: i64=0
    reveal_type(min((3, 4), default=9))  # expect-type: i64=3
    reveal_type(int('11', base=2))  # expect-type: i64=3
    return n
