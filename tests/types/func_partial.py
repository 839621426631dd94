# partial(f, *args) binds leading arguments.
from functools import partial
from typing import reveal_type


def add(a, b):
    return a + b


def add3(a, b, c):
    return a * 100 + b * 10 + c


def main():
    inc = partial(add, 1)
    reveal_type(inc(2))  # expect-type: i64=3
    reveal_type(partial(add, 'x')('y'))  # expect-type: str='xy'
    p = partial(add3, 1)
    reveal_type(p(2, 3))  # expect-type: i64=123
    q = partial(p, 4)
    reveal_type(q(5))  # expect-type: i64=145
    reveal_type(partial(add, 1, 2)())  # expect-type: i64=3
    return 0


def offset(x: float) -> float:
    f = partial(add, 0.5)
    r = f(x)  # expect-type: f64
    return r
