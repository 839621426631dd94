# Lists are homogeneous with an unknown length (DSL rule): the element type
# is the join of the items.
from typing import reveal_type


def main():
    xs = [1, 2, 3]  # expect-type: list[i64]
    reveal_type(xs[0])  # expect-type: i64
    reveal_type(xs[-1])  # expect-type: i64
    reveal_type(len(xs))  # expect-type: i64
    reveal_type([1.5])  # expect-type: list[f64=1.5]
    reveal_type(['a', 'b'])  # expect-type: list[str]
    reveal_type([(1, 2), (3, 4)])  # expect-type: list[tuple[i64, i64]]
    reveal_type(xs[1:])  # expect-type: list[i64]
    reveal_type([[1], [2, 3]])  # expect-type: list[list[i64]]
    return xs[0]


def first(n: int) -> int:
    ys = [n, n + 1]  # expect-type: list[i64]
    return ys[0]
