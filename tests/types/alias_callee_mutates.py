# A list passed to a function of the module that changes that parameter's
# list in place changes in the caller too (CPython passes the object):
# the caller's list is shared from then on, its length unknown, not the
# length it had before the call.  A function that only reads its
# parameter leaves the caller's list exact.
from typing import reveal_type


def add_to(lst, v):
    lst.append(v)  # expect-warning: unsupported


def set_first(xs, v=0):
    xs[0] = v  # expect-warning: unsupported


def total(xs):
    return sum(xs)


def grows() -> int:
    xs = [0]
    add_to(xs, 5)
    reveal_type(xs)  # expect-type: list[unknown]
    return len(xs)


def by_keyword() -> int:
    ys = [1, 2]
    set_first(v=7, xs=ys)
    return ys[0]


def read_only() -> int:
    zs = [1, 2, 3]
    t = total(zs)
    reveal_type(len(zs))  # expect-type: i64=3
    return t


if __name__ == "__main__":
    print(grows(), by_keyword(), read_only())
