# A local bound on every path, or on the path actually taken, is fine.
from typing import reveal_type


def f(n: int) -> int:
    if n > 0:
        y = 1
    else:
        y = 2
    return y


def g():
    for i in range(3):
        last = i
    reveal_type(last)  # expect-type: i64=2
    return last


def h(flag):
    if flag:
        v = 10
    if flag:
        return v
    return 0


def main():
    reveal_type(h(True))  # expect-type: i64=10
    reveal_type(h(False))  # expect-type: i64=0
    return g()
