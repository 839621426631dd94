# Type-directed recursion over nested tuples, decided by isinstance.
from typing import reveal_type


def total(t):
    if isinstance(t, int):
        return t
    s = 0
    for x in t:
        s = s + total(x)
    return s


def depth(t):
    if not isinstance(t, tuple):
        return 0
    d = 0
    for x in t:
        d = max(d, depth(x))
    return d + 1


def flatten(t):
    if isinstance(t, int):
        return (t,)
    out = ()
    for x in t:
        out = out + flatten(x)
    return out


def main():
    reveal_type(total(((1, 2), (3, (4, 5)))))  # expect-type: i64=15
    reveal_type(depth((1, (2, (3,)), ())))  # expect-type: i64=3
    reveal_type(flatten((1, (2, 3), ((4,),))))  # expect-type: tuple[i64=1, i64=2, i64=3, i64=4]
    reveal_type(total(7))  # expect-type: i64=7
    return 0


def total_pair(p: tuple[int, tuple[int, int]]) -> int:
    r = total(p)  # expect-type: i64
    return r
