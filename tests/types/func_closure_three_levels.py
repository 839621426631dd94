# Closures nested three deep read every enclosing level.
from typing import reveal_type


def outer(a):
    def middle(b):
        def inner(c):
            return a * 100 + b * 10 + c
        return inner
    return middle


def main():
    reveal_type(outer(1)(2)(3))  # expect-type: i64=123
    f = outer(4)
    g = f(5)
    reveal_type(g(6))  # expect-type: i64=456
    reveal_type(f(0)(0))  # expect-type: i64=400
    return 0
