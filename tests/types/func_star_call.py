# f(*t) spreads a tuple over the parameters.
from typing import reveal_type


def add(a, b):
    return a + b


def triple(a, b, c):
    return (c, b, a)


def main():
    args = (1, 2)
    reveal_type(add(*args))  # expect-type: i64=3
    reveal_type(add(1, *(2,)))  # expect-type: i64=3
    reveal_type(add(*(1,), *(2.5,)))  # expect-type: f64=3.5
    reveal_type(triple(*('a', 'b', 'c')))  # expect-type: tuple[str='c', str='b', str='a']
    reveal_type(triple(*args, 3))  # expect-type: tuple[i64=3, i64=2, i64=1]
    return 0


def spread(p: tuple[int, float]) -> float:
    r = add(*p)  # expect-type: f64
    return r


def spread_list(n: int):
    # a list whose length is known spreads element-wise, as a tuple does
    # (`Sequential(*layers)` after `layers.append(...)` in a loop)
    xs = [1, 2.5]
    r = add(*xs)  # expect-type: f64=3.5
    ys = [1]
    for _ in range(1, 3):
        ys.append(ys[-1] * 2)
    s = triple(*ys)  # expect-type: tuple[i64=4, i64=2, i64=1]
    zs = [i for i in range(n)]
    t = add(*zs)  # expect-type: unknown
    return r, s, t
