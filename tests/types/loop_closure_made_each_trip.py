# A closure made on every trip of exactly unrolled loops nested in a loop
# with an unknown bound (found by make stress, seed 4242).  Each trip's
# closure holds the previous trip's in its context's arguments, so merging
# two of them once joined their contexts recursively: 2^36 joins here, a
# hang that no step budget saw.  Contexts are now stripped of closures
# before they are joined, and this takes milliseconds.
# The closure reads i5 and b, which the loops rebind: CPython binds them
# when it runs (late binding), and a call inside the loop may run after a
# later trip rebound them, so the read is unknown there (parser/late.c).
from typing import reveal_type


def f(a: int, b: int):
    v = 0
    for i2 in range(a):
        k3 = 0
        while k3 < 6:
            k3 += 1
            k4 = 0
            while k4 < 3:
                k4 += 1
                for i5 in range(2):
                    b *= 2
                    inner = lambda z: (i5 if True else b) % 64  # expect-warning: late-binding
                    v = inner(a)
    reveal_type(v)  # expect-type: unknown
    return v


def main():
    g = f(2, 1)
    reveal_type(g)  # expect-type: unknown
    return g
