# A list literal has a known length: its value keeps each item, printed
# list[T1, T2] (one item: list[T1,]), and a constant index picks the item.
# The items must still have one type (DSL rule): the element type, used
# once the length is unknown, is their join.
from typing import reveal_type


def main():
    xs = [1, 2, 3]  # expect-type: list[i64=1, i64=2, i64=3]
    reveal_type(xs[0])  # expect-type: i64=1
    reveal_type(xs[-1])  # expect-type: i64=3
    reveal_type(len(xs))  # expect-type: i64=3
    reveal_type([1.5])  # expect-type: list[f64=1.5,]
    reveal_type(['a', 'b'])  # expect-type: list[str='a', str='b']
    reveal_type([(1, 2), (3, 4)])  # expect-type: list[tuple[i64=1, i64=2], tuple[i64=3, i64=4]]
    reveal_type(xs[1:])  # expect-type: list[i64=2, i64=3]
    reveal_type([[1], [2, 3]])  # expect-type: list[list[i64=1,], list[i64=2, i64=3]]
    return xs[0]


def first(n: int) -> int:
    ys = [n, n + 1]  # expect-type: list[i64, i64]
    return ys[0]
