# `*` inside a tuple or list display: the concatenation of its parts,
# item by item (it was `unsupported`, and the function's result `error`).
from typing import reveal_type


def parts(t, xs):
    a = (0, *t)
    b = [*xs, 9]
    c = (*t, *xs)
    d = [*t]
    return a, b, c, d


def main():
    r = parts((1, 2), [3, 4])
    reveal_type(r)  # expect-type: tuple[tuple[i64=0, i64=1, i64=2], list[i64=3, i64=4, i64=9], tuple[i64=1, i64=2, i64=3, i64=4], list[i64=1, i64=2]]
    reveal_type((*"ab", 1))  # expect-type: tuple[str='a', str='b', i64=1]
    return r


def bad():
    n = 3
    return (1, *n)  # expect-error: type-mismatch


if __name__ == "__main__":
    print(main())
