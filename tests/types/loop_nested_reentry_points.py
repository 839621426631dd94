# Loops nested three deep, each with an unknown trip count and several
# re-entry points (continue, break, branches that bind different
# variables), and a return from the innermost (found by make stress).  Each
# re-entry once started its own ascending chain of contexts and every
# outer round restarted the inner fixpoints from bottom: 41 million steps,
# a `budget` warning and `unknown`.  Re-entries now join with the widest
# one of their loop so far, and a restarted fixpoint starts from its last
# value: a few thousand steps and the exact i64.
from typing import reveal_type


def f(a: int, b: int, c: int):
    v7 = 0
    for i0 in range(c):
        for i11 in range(a % 12, 0, -1):
            for i17 in range(b % 6, 0, -1):
                if c > 1:
                    if a > 3:
                        continue
                    v18 = 1
                elif i11 > 2:
                    if b > 3:
                        break
                if i17 < 3:
                    if b > 5:
                        return 1
                    v20 = ((v7 - 32), ((7,) + (a,)))
                    v21 = 2.5
                elif v7 < 3:
                    v22 = ((b, (a,)),)
                    v23 = 1.5
                elif b != 4:
                    if a > 6:
                        continue
                    v24 = ((a,), 3.0)
                    v26 = ((a, (b, i11, 16)), ((a, b, i11),), 13)
                else:
                    v27 = 0.25
    return v7


def main(a: int, b: int, c: int):
    r = f(a, b, c)
    reveal_type(r)  # expect-type: i64
    return r
