# A variable bound only in a loop's else clause leaves the loop: the else
# runs on every way out but a break (CPython: f(3) is 's', g() is 42).
from typing import reveal_type


def f(n: int):
    for i in range(n):
        pass
    else:
        r = 's'
    return r


def g():
    x = 0
    while x < 3:
        x += 1
    else:
        y = 42
    return y


def h(n: int):
    k = 1
    for i in range(n):
        k = 2
    else:
        k = 'a'
    return k


def w(n: int):
    for i in range(n):
        if i == 2:
            break
    else:
        z = 1
    return z  # expect-error: undefined-name


def main():
    reveal_type(f(3))  # expect-type: str='s'
    reveal_type(g())  # expect-type: i64=42
    reveal_type(h(2))  # expect-type: str='a'
    return 0
