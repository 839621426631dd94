# A for loop's target reused by a later loop with another type or dtype
# (found by make stress): every trip binds the target before the body runs,
# so its value from before the loop is dead inside; it is no merge error.
# After the loop it is the old value or an item: unknown when they differ.
from __future__ import annotations
from typing import reveal_type
from fathom import Tensor, cast, f32, f64, zeros


def rows(x: Tensor[f32, (B, D)]):
    t1 = x[0] * 0.0
    for row in x:
        t1 = t1 + row
    t2 = cast(x, f64)
    t3 = t2[0] * 0.0
    for row in t2:
        t3 = t3 + row
    reveal_type(t3)  # expect-type: Tensor[f64, (D,)]
    return t1, t3


def words_then_numbers(n: int):
    total = 0
    for w in ("a", "bc"):
        total = total + len(w)
    for w in range(n):
        total = total + w
    reveal_type(total)  # expect-type: i64
    return total


def read_after(n: int):
    x = "start"
    for x in range(n):
        pass
    reveal_type(x)  # expect-type: unknown
    return 0


def still_checked(n: int):
    acc = 0
    for i in range(n):  # expect-error: type-mismatch
        acc = acc + 0.5
    return acc
