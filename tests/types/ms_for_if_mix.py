# MindSpore control-flow style: if inside for, for inside if, break/continue.
from typing import reveal_type


def if_in_for(xs):
    acc = 0
    for x in xs:
        if x % 2 == 0:
            acc = acc + x
        else:
            acc = acc - 1
    return acc


def for_in_if(flag, n):
    out = 1.0
    if flag:
        for i in range(n):
            out = out * 2
    else:
        out = out / 2
    return out


def first_over(xs, bound):
    found = -1
    for i, x in enumerate(xs):
        if x > bound:
            found = i
            break
    return found


def skip_odd(n):
    total = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        total += i * i
    return total


def for_else(xs, target):
    for x in xs:
        if x == target:
            r = "hit"
            break
    else:
        r = "miss"
    return r


def main():
    reveal_type(if_in_for((1, 2, 3, 4)))  # expect-type: i64=4
    reveal_type(for_in_if(True, 3))  # expect-type: f64=8.0
    reveal_type(for_in_if(False, 3))  # expect-type: f64=0.5
    reveal_type(first_over((1, 5, 9, 2), 4))  # expect-type: i64=1
    reveal_type(first_over((1, 2), 4))  # expect-type: i64=-1
    reveal_type(skip_odd(6))  # expect-type: i64=20
    reveal_type(for_else((1, 2, 3), 2))  # expect-type: str='hit'
    reveal_type(for_else((1, 2, 3), 7))  # expect-type: str='miss'
    return 0


def any_inputs(flag: bool, n: int, xs: tuple[int, int, int]):
    a = for_in_if(flag, n)  # expect-type: f64
    b = if_in_for(xs)  # expect-type: i64
    c = first_over(xs, n)  # expect-type: i64
    d = skip_odd(n)  # expect-type: i64
    e = for_else(xs, n)  # expect-type: str
    return a, b, c, d, e
