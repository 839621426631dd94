# A builtin call that always raises on the values it gets is a `no-return`
# error at the call (CPython raises there), as a constant division by
# zero is; the same calls on values that work give their results.
import math
from typing import reveal_type


def parse(s):
    return int(s) + 1  # expect-error: no-return


def parse_float(s):
    return float(s)  # expect-error: no-return


def root(x):
    return math.sqrt(x)  # expect-error: no-return


def log_base(x, b):
    return math.log(x, b)  # expect-error: no-return


def grow(x):
    return math.exp(x)  # expect-error: no-return


def down(x):
    return math.floor(x)  # expect-error: no-return


def largest(xs):
    return max(xs)  # expect-error: no-return


def good():
    reveal_type(parse('12'))  # expect-type: i64=13
    reveal_type(parse_float('1e3'))  # expect-type: f64=1000.0
    reveal_type(root(4.0))  # expect-type: f64=2.0
    reveal_type(log_base(8.0, 2.0))  # expect-type: f64=3.0
    reveal_type(grow(0.0))  # expect-type: f64=1.0
    reveal_type(down(2.5))  # expect-type: i64=2
    reveal_type(largest([3, 1]))  # expect-type: i64=3
    reveal_type(max([], default=7))  # expect-type: i64=7
    return 0


def bad():
    a = parse('abc')
    b = parse_float('x1')
    c = root(-1.0)
    d = log_base(8.0, 1.0)
    e = grow(1000.0)
    f = down(float('inf'))
    g = largest([])
    h = int(float('nan'))  # expect-error: no-return
    return a, b, c, d, e, f, g, h


if __name__ == "__main__":
    good()
    bad()
