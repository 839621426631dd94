# Python builtins outside the DSL: CPython defines them, so they are
# `unsupported` (a warning at the name, the value unknown and silent
# downstream), not `undefined-name`; a real typo still is.  A function of
# the program may reuse a builtin's name.
from typing import reveal_type


def sorted(t):
    return t


def main(x: float, t: tuple[int, int]):
    a = round(x)  # expect-warning: unsupported
    b = divmod(7, 2)  # expect-warning: unsupported
    c = a + b[0]
    d = sorted(t)
    reveal_type(d)  # expect-type: tuple[i64, i64]
    e = rnd(x)  # expect-error: undefined-name
    f = divmod(t)  # expect-warning: unsupported
    raise KeyError("k")  # a supported exception class
