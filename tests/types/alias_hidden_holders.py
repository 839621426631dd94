# Changes of a list that another holder sees, in the ways the alias scan
# (parser/alias.c) must not miss: an augmented assignment on a second name
# (`ys = xs; ys *= 3`, `ys += (5,)` extends in place), a change inside an
# item of a local (`t[0].append(v)`, `grid[0][1] = v`: the local and what
# was put into it), a closure that changes a captured list, and a
# default argument the body changes (one list for every call).  Each holder reads an unknown length or item afterwards,
# never the stale constant; the soundness suite checks every value
# against CPython.
from fathom import *
from typing import reveal_type


def aug_repeat_shared():
    xs = [1]
    ys = xs
    ys *= 3
    reveal_type(len(xs))  # expect-type: i64
    return len(xs)


def aug_extend_by_tuple():
    xs = [1]
    ys = xs
    ys += (5,)
    return len(xs)


def change_through_item():
    xs = [1]
    t = (xs,)
    t[0].append(2)  # expect-warning: unsupported
    return len(xs), len(t[0])


def item_of_item():
    row = [0, 0]
    grid = [row, row]
    grid[0][1] = 5  # expect-warning: unsupported
    return row[1], grid[1][1]


def closure_changes_capture():
    xs = [1]

    def add():
        xs.append(2)  # expect-warning: unsupported

    add()
    return len(xs)


def with_default(x, xs=[]):
    xs.append(x)
    return len(xs)


def default_kept_between_calls():
    return with_default(1), with_default(2)


def number_aug_unchanged(n: int):
    s = n
    t = s
    t += 1
    reveal_type(s)  # expect-type: i64
    return s, t
