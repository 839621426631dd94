"""A small fathom program: recursion, a loop, a closure and a tuple."""
from fathom import *


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def running_sums(t):
    total = 0
    out = ()
    for x in t:
        total += x
        out = out + (total,)
    return out


@jit
def main():
    scale = 3

    def scaled(v):
        return v * scale

    return scaled(fib(10)), running_sums((1, 2, 3))


if __name__ == "__main__":
    print(main())
