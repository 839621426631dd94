# A list's length is known while it is built from known parts (language.md
# 5): literals, comprehensions over known-length iterables, list(tuple),
# +, * by a constant, constant slices, appends in unrolled loops.  Its
# value is item-wise like a tuple: list[T1, T2], one item list[T1,].  Once
# the length is unknown (a loop with an unknown trip count, branches giving
# different lengths) it is list[T], the join of the items, which must
# have one type (a tracked list may mix types, like a tuple).
from typing import reveal_type


def mixed():
    reveal_type([1, 2.5, 3])  # expect-type: list[i64=1, f64=2.5, i64=3]
    return [1, 2.5, 3]


def pieces():
    q, k, v = [x * 2 for x in (1, 2, 3)]
    reveal_type(k)  # expect-type: i64=4
    reveal_type(list((1, 2)))  # expect-type: list[i64=1, i64=2]
    reveal_type(tuple([3, 4]))  # expect-type: tuple[i64=3, i64=4]
    reveal_type([1, 2, 3][::-1])  # expect-type: list[i64=3, i64=2, i64=1]
    reveal_type([7, 8][5:])  # expect-type: list[bottom]
    for i, w in enumerate(['a', 'bb']):
        reveal_type(w)  # expect-type: str='a' | str='bb'
    pairs = [(a, b) for a, b in zip([1, 2], ['x', 'y'])]
    reveal_type(pairs)  # expect-type: list[tuple[i64=1, str='x'], tuple[i64=2, str='y']]
    return q + k + v


def grow(n: int):
    acc = [0]
    for i in range(n):
        acc.append(i)
    reveal_type(acc)  # expect-type: list[i64]
    reveal_type(len(acc))  # expect-type: i64
    return acc


def branches(flag: bool):
    same = [1, 2] if flag else [3, 4]
    reveal_type(same)  # expect-type: list[i64, i64]
    other = [1, 2] if flag else [3]
    reveal_type(other)  # expect-type: list[i64]
    return same, other


def growing_while(n: int):
    xs = []
    while len(xs) < n:
        xs = xs + [len(xs)]
    reveal_type(xs)  # expect-type: list[i64]
    return xs


def last(n: int):
    xs = [n, n + 1]
    return xs[2]  # expect-error: index-out-of-range


def main():
    pieces()
    reveal_type(len([1, 2] * 3))  # expect-type: i64=6
    return 0
