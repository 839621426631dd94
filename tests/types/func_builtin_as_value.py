# Builtins are function values that can be stored and passed.
from typing import reveal_type


def apply(f, x):
    return f(x)


def main():
    g = len
    reveal_type(g((1, 2)))  # expect-type: i64=2
    reveal_type(apply(abs, -4))  # expect-type: i64=4
    reveal_type(apply(str, 12))  # expect-type: str='12'
    h = max
    reveal_type(h(1, 9, 3))  # expect-type: i64=9
    return 0
