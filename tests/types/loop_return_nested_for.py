# return from inside two nested for loops.
from typing import reveal_type


def pair_sum(t, target):
    for i in range(len(t)):
        for j in range(i + 1, len(t)):
            if t[i] + t[j] == target:
                return (i, j)
    return (-1, -1)


def main():
    reveal_type(pair_sum((2, 7, 11, 15), 9))  # expect-type: tuple[i64=0, i64=1]
    reveal_type(pair_sum((1, 2, 3), 5))  # expect-type: tuple[i64=1, i64=2]
    reveal_type(pair_sum((1, 2), 10))  # expect-type: tuple[i64=-1, i64=-1]
    return 0


def pair_any(t: tuple[int, int, int], target: int) -> tuple[int, int]:
    r = pair_sum(t, target)  # expect-type: tuple[i64, i64]
    return r
