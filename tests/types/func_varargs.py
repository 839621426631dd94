# *args collects the extra positional arguments into a tuple.
from typing import reveal_type


def total(*xs):
    return sum(xs)


def first_and_rest(a, *rest):
    return (a, rest)


def count(*xs):
    return len(xs)


def main():
    reveal_type(total())  # expect-type: i64=0
    reveal_type(total(1, 2, 3))  # expect-type: i64=6
    reveal_type(total(1, 2.5))  # expect-type: f64=3.5
    reveal_type(first_and_rest(1, 'a', None))  # expect-type: tuple[i64=1, tuple[str='a', none]]
    reveal_type(first_and_rest(1))  # expect-type: tuple[i64=1, tuple[()]]
    reveal_type(count(4, 5, 6, 7))  # expect-type: i64=4
    return 0
