# A function that can fall off its end while other paths return a value
# gets a `missing-return` warning at its last line saying when (as mypy's
# "Missing return statement" and ruff's RET503); its result is the
# optional.
from typing import reveal_type


def sign(n: int):
    if n > 0:
        return 1
    elif n < 0:
        return -1  # expect-warning: missing-return


def first(xs: list[int]):
    for x in xs:
        return x  # expect-warning: missing-return


def find(xs: tuple[int, int, int], v: int):
    for x in xs:
        if x == v:
            return x  # expect-warning: missing-return


def search(n: int):
    k = 0
    while k < n:
        k += 1
        if k * k == n:
            return k
    print(k)  # expect-warning: missing-return


def explicit(n: int):
    if n > 0:
        return 1
    return None   # an explicit None: no warning


def procedure(n: int):
    if n > 0:
        print(n)
        return
    print(-n)     # every path returns None: no warning


def always(n: int):
    if n > 0:
        return 1
    else:
        return 2


def main(n: int):
    reveal_type(sign(n))  # expect-type: i64 | none
    reveal_type(sign(3))  # expect-type: i64=1
    reveal_type(find((1, 2, 3), n))  # expect-type: i64 | none
    reveal_type(search(n))  # expect-type: i64 | none
    reveal_type(explicit(n))  # expect-type: i64=1 | none
    reveal_type(procedure(n))  # expect-type: none
    reveal_type(always(n))  # expect-type: i64
    return 0
