# Using an optional where None is invalid is an `optional` error at the
# use; the value flows on as its non-None part, and the other uses of the
# same value are the same mistake, so it is reported once.
from typing import reveal_type


def maybe(n: int):
    return n if n > 0 else None


def pair(n: int):
    return (n, n + 1) if n > 0 else None


def twice(k):
    return 2 * k


def uses(n: int) -> int:
    x = maybe(n)
    a = x + 1  # expect-error: optional
    reveal_type(a)  # expect-type: i64
    b = -x + x * 2   # the same x: reported once, above
    c = pair(n)[0]  # expect-error: optional
    p, q = pair(n + 1)  # expect-error: optional
    reveal_type(p)  # expect-type: i64
    d = len(pair(n + 2))  # expect-error: optional
    s = 0
    for v in pair(n + 3):  # expect-error: optional
        s += v
    f = twice if n > 1 else None
    e = f(3)  # expect-error: optional
    reveal_type(e)  # expect-type: i64=6
    return a + b + c + d + e + p + q + s


def fine(n: int) -> str:
    x = maybe(n)
    # None is a valid argument of these: no error, the result joins both
    r = str(x)
    print(x)
    y = x == 3
    reveal_type(y)  # expect-type: bool
    z = (x, 1)
    reveal_type(z)  # expect-type: tuple[i64 | none, i64=1]
    k = [x, None]
    reveal_type(k)  # expect-type: list[i64 | none, none]
    return r
