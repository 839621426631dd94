# sum() adds from its start value (0 by default); over a tuple or a list of
# known length it folds item by item, so constants stay constant.
from typing import reveal_type


def main():
    reveal_type(sum((1, 2, 3)))  # expect-type: i64=6
    reveal_type(sum((1.5, 2)))  # expect-type: f64=3.5
    reveal_type(sum((1, 2), 10))  # expect-type: i64=13
    reveal_type(sum(()))  # expect-type: i64=0
    reveal_type(sum((True, True, False)))  # expect-type: i64=2
    reveal_type(sum((0.1, 0.2)))  # expect-type: f64=0.30000000000000004
    reveal_type(sum([1, 2, 3]))  # expect-type: i64=6
    depths = [1, 1, 2, 1]
    reveal_type(sum(depths))  # expect-type: i64=5
    reveal_type(sum([d * 2 for d in depths], 1))  # expect-type: i64=11
    reveal_type(sum(range(4)))  # expect-type: i64=6
    reveal_type(sum((), 0.5))  # expect-type: f64=0.5
    return 0


def total(t: tuple[int, int, int], x: float) -> float:
    reveal_type(sum(t))  # expect-type: i64
    reveal_type(sum(t, x))  # expect-type: f64
    return sum(t, x)
