# Myia style closures: capture, returning closures, closures chosen by a branch.
from typing import reveal_type


def make_adder(n):
    def add(x):
        return x + n
    return add


def compose(f, g):
    return lambda x: f(g(x))


def counter_pair(start):
    def inc(k):
        return start + k

    def dec(k):
        return start - k
    return inc, dec


def pick(flag, a, b):
    def left():
        return a

    def right():
        return b
    f = left if flag else right
    return f()


def nested3(x):
    def g(y):
        def h(z):
            return x * 100 + y * 10 + z
        return h(3)
    return g(2)


def main():
    add3 = make_adder(3)
    reveal_type(add3(4))  # expect-type: i64=7
    reveal_type(make_adder(0.5)(1))  # expect-type: f64=1.5
    double_then_add = compose(make_adder(1), lambda v: v * 2)
    reveal_type(double_then_add(5))  # expect-type: i64=11
    inc, dec = counter_pair(10)
    reveal_type((inc(1), dec(1)))  # expect-type: tuple[i64=11, i64=9]
    reveal_type(pick(True, 1, 2))  # expect-type: i64=1
    reveal_type(nested3(1))  # expect-type: i64=123
    return 0


def unknown_flag(flag: bool, x: int):
    r = pick(flag, x, 2)  # expect-type: i64
    s = pick(flag, 1.0, 2.0)  # expect-type: f64
    return r, s
