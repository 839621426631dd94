# A keyword argument whose value is never made (it comes from a call that
# always raises) is still a keyword argument: the call after it is never
# reached, and no false "takes 0 positional arguments" is reported for it
# (gMLP's `x = layer(x=x, mask=mask)` after a block that always fails).
from typing import reveal_type


def f(*, x):
    raise ValueError("no")


def g():
    x = f(x=2)
    y = f(x=x)
    return y


def h(*, x, scale=2):
    return x * scale


def ok():
    reveal_type(h(x=3))  # expect-type: i64=6
    return h(x=3)
