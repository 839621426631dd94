# A condition mixing a 0-d tensor test and a Python bool: each operand is
# tested for its truth (Tensor[bool_, ()] and bool are never joined), as
# CPython runs it.  MindSpore users know this false error as "Type Join
# Failed".
from fathom import *
from typing import reveal_type


def shrink(out, limit):
    i = 0
    while i < limit and reduce_sum(out, 0, False) > 0.0:
        out = out - 1.0
        i += 1
    return i, out


def positive(x, flag):
    if flag and reduce_sum(x) > 0.0:
        return 1
    return 0


def main():
    n, y = shrink(ones((3,)), 3)
    reveal_type(n)  # expect-type: i64
    reveal_type(y)  # expect-type: Tensor[f32, (3,)]
    reveal_type(positive(ones((2, 2)), True))  # expect-type: i64
    reveal_type(positive(ones((2, 2)), False))  # expect-type: i64=0
    return 0
