# A walrus fathom does not model (in the right operand of `and`/`or`, a
# conditional expression's arms, a chained comparison's later parts, a
# comprehension) is reported as unsupported, and the name it binds is
# unknown once that part is over: never the value it had before, and no
# false "referenced before assignment" after it.  A comprehension's walrus
# binds in the function around it, as in CPython.
from fathom import *
from typing import reveal_type


def in_or(x: int):
    z = 0
    ok = x > 0 or (z := 5) > 0  # expect-warning: unsupported
    reveal_type(z)  # expect-type: unknown
    return ok, z


def in_and_test(a: int):
    if a > 0 and (b := a * 2) > 10:  # expect-warning: unsupported
        return b
    return 0


def in_comprehension():
    [x for x in (1, 3) if (y := x * x) > 1]  # expect-warning: unsupported
    return y


def plain(x: int):
    if (n := x + 1) > 3:
        return n
    return -n
