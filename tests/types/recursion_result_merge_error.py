# A recursion whose base case returns int while the recursive case returns
# float: the result joins i64 and f64 (DSL rule: an error), even though the
# mismatch only appears in the second fixpoint round.
from typing import reveal_type


def fact(n):
    if n <= 1:  # expect-error: type-mismatch
        return 1
    return n * fact(n - 1)


def depth(t, k):
    if k == 0:
        return 0
    else:
        if t > 0:  # expect-error: type-mismatch
            return depth(t - 1, k - 1) * 0.5
        else:
            return depth(t - 1, k - 1) + 1


def ok_int(n: int):
    r = fact(n)  # expect-type: i64
    return r


def bad_float(x: float):
    return fact(x)


def bad_nested(t: int, k: int):
    return depth(t, k)


def main():
    reveal_type(fact(3.0))  # expect-type: f64=6.0
    return 0
