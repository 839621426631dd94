# A helper whose bad branch is not taken by any of its calls: the branch is
# still checked, as if its flag test went the other way (interfaces.md,
# `fathom check`); a branch pruned by a structural test (len) is not.
from typing import reveal_type


def f(x):
    if x > 0:
        return x + 1
    return x + 'a'  # expect-error: type-mismatch


def g(t):
    if len(t) > 1:
        return t[1]
    return t[0]


def main():
    reveal_type(f(3))  # expect-type: i64=4
    reveal_type(f(0.5))  # expect-type: f64=1.5
    reveal_type(g((1, 2.5)))  # expect-type: f64=2.5
    reveal_type(g(('s',)))  # expect-type: str='s'
    return 0
