# Optionals (language.md 5): None on one path and a value on another is
# `T | none`; tests of a name narrow it in each branch.
from typing import reveal_type


def maybe(n: int):
    return n if n > 0 else None


def is_none_early(n: int) -> int:
    x = maybe(n)
    reveal_type(x)  # expect-type: i64 | none
    if x is None:
        reveal_type(x)  # expect-type: none
        return 0
    reveal_type(x)  # expect-type: i64
    return x + 1


def is_not_none(n: int) -> int:
    x = maybe(n)
    if x is not None:
        return x * 2
    reveal_type(x)  # expect-type: none
    return -1


def eq_none(n: int) -> int:
    x = maybe(n)
    if x == None:  # noqa: E711 (the test the DSL allows too)
        return 0
    return x - 1


def ne_none(n: int) -> int:
    x = maybe(n)
    if None != x:
        return x - 1
    return 0


def truthy(n: int) -> int:
    x = maybe(n)
    if x:
        reveal_type(x)  # expect-type: i64
        return x
    reveal_type(x)  # expect-type: i64 | none
    return 0


def not_falsy(n: int) -> tuple[int, int] | None:
    t = (n, n) if n > 0 else None
    if not t:
        reveal_type(t)  # expect-type: none
        return None
    return t


def elif_chain(n: int) -> int:
    x = maybe(n)
    if n > 100:
        return 100
    elif x is None:
        return 0
    else:
        return x


def both_tested(a: int, b: int) -> int:
    x, y = maybe(a), maybe(b)
    if x is not None and y is not None:
        return x + y
    if x is None or y is None:
        return 0
    return x * y   # not reached: one of the tests above holds


def guarded_expression(n: int) -> int:
    x = maybe(n)
    y = x + 1 if x is not None else 0
    z = x is not None and x > 3
    reveal_type(z)  # expect-type: bool
    w = x or 7
    reveal_type(w)  # expect-type: i64
    return y


def reassigned(n: int) -> int:
    x = maybe(n)
    if x is None:
        x = 0
    reveal_type(x)  # expect-type: i64
    return x


def asserted(n: int) -> int:
    x = maybe(n)
    assert x is not None
    return x + 1


def loop_until(n: int) -> int:
    x = maybe(n)
    k = 0
    while x is not None and x > 0:
        x = x - 1 if x > 1 else None
        k += 1
    return k


def filtered(n: int) -> list[int]:
    xs = [maybe(k - 2) for k in range(n)]
    return [v + 1 for v in xs if v is not None]


def constants():
    a = maybe(3)
    b = maybe(-1)
    reveal_type(a)  # expect-type: i64=3
    reveal_type(b)  # expect-type: none
    return 0
