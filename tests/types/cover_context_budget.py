# The coverage of code no entry reaches gives each function two contexts
# of its own; past them a call's arguments are broadened and that context
# is lenient (docs/architecture.md, "Coverage of skipped code"): a helper
# fed with many constants by functions nobody calls is not analysed once
# per constant, and what broadening leaves undetermined is silent there.
from fathom import *


def pick(n, width):
    bias = None if n > 3 else zeros((width,))
    if bias is None:
        return zeros((2, width))
    return ones((2, width)) + bias


def unroll(n):
    total = 0
    for i in range(n):
        total = total + i * i
    return total


def never_called(x):
    a = pick(1, 4)
    b = pick(2, 4)
    c = pick(3, 4)
    d = pick(5, 4)
    s = unroll(10) + unroll(20) + unroll(30) + unroll(40)  # expect-type: i64
    e = a + b + c + d
    return e @ ones((5, 2))  # expect-error: shape-mismatch


def also_never_called(t):
    r = unroll(50) + unroll(60)
    return r + "s"  # expect-error: type-mismatch
