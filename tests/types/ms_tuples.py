# Tuples: nested unpacking, slicing, concatenation, swaps in loops, star calls.
from typing import reveal_type


def swap_loop(a, b, n):
    for _ in range(n):
        a, b = b, a
    return a, b


def rotate(t):
    return t[1:] + t[:1]


def flatten2(t):
    (a, b), (c, d) = t
    return a, b, c, d


def add3(x, y, z):
    return x + y + z


def tuple_reduce(t):
    s = 0
    for i in range(len(t)):
        s = s + t[i] * i
    return s


def main():
    reveal_type(swap_loop(1, "x", 3))  # expect-type: tuple[str='x', i64=1]
    reveal_type(rotate((1, 2.5, "s")))  # expect-type: tuple[f64=2.5, str='s', i64=1]
    reveal_type(flatten2(((1, 2), (3, 4))))  # expect-type: tuple[i64=1, i64=2, i64=3, i64=4]
    reveal_type(add3(*(1, 2, 3)))  # expect-type: i64=6
    reveal_type(tuple_reduce((5, 6, 7)))  # expect-type: i64=20
    reveal_type((1, 2) * 2)  # expect-type: tuple[i64=1, i64=2, i64=1, i64=2]
    reveal_type((1, (2, 3))[1][0])  # expect-type: i64=2
    return 0


def any_tuple(t: tuple[int, float], n: int):
    r = rotate(t)  # expect-type: tuple[f64, i64]
    s = tuple_reduce(t)  # expect-type: f64
    u = swap_loop(1, 2, n)  # expect-type: tuple[i64, i64]
    return r, s, u
