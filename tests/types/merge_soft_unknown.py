# A merge whose condition is undetermined only because of unknown values is
# silent: what cannot be joined is unknown (interfaces.md, `fathom check`).
from fathom import *
from typing import reveal_type


def block(x, c, use_1x1conv):
    shape = (1, c) if x.ndim == 2 else (1, c, 1, 1)
    reveal_type(shape)  # expect-type: unknown
    dims = 0 if x.ndim == 2 else (0, 2, 3)
    new = ()
    for i in range(c):
        new = new + (x,)
    if c > 3:
        y = 1
    elif c <= 3:
        y = 2
    reveal_type(y)  # expect-type: i64
    return shape, dims, new, y


def rows(t):
    h_n = ()
    for row in t:
        h_n += (row,)
    return h_n


def hard(n: int):
    if n > 3:  # expect-error: type-mismatch
        v = 1
    else:
        v = (1,)
    return v


def hard_loop(n: int):
    acc = ()
    for i in range(n):  # expect-error: type-mismatch
        acc = acc + (i,)
    return acc


def main():
    reveal_type(rows((1, 2)))  # expect-type: tuple[i64=1, i64=2]
    return 0
