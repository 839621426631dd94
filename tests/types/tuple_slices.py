# Slices of tuples with constant bounds are exact (and never raise).
from typing import reveal_type


def main():
    t = (1, 2, 3, 4, 5)
    reveal_type(t[1:3])  # expect-type: tuple[i64=2, i64=3]
    reveal_type(t[:2])  # expect-type: tuple[i64=1, i64=2]
    reveal_type(t[3:])  # expect-type: tuple[i64=4, i64=5]
    reveal_type(t[::2])  # expect-type: tuple[i64=1, i64=3, i64=5]
    reveal_type(t[::-1])  # expect-type: tuple[i64=5, i64=4, i64=3, i64=2, i64=1]
    reveal_type(t[-2:])  # expect-type: tuple[i64=4, i64=5]
    reveal_type(t[1:100])  # expect-type: tuple[i64=2, i64=3, i64=4, i64=5]
    reveal_type(t[4:1])  # expect-type: tuple[()]
    reveal_type(t[-100:1])  # expect-type: tuple[i64=1]
    reveal_type(t[5:])  # expect-type: tuple[()]
    reveal_type(t[1:-1])  # expect-type: tuple[i64=2, i64=3, i64=4]
    reveal_type(t[::-2])  # expect-type: tuple[i64=5, i64=3, i64=1]
    reveal_type(t[3:0:-1])  # expect-type: tuple[i64=4, i64=3, i64=2]
    return 0


def tail(p: tuple[int, float, str]) -> tuple[float, str]:
    reveal_type(p[1:])  # expect-type: tuple[f64, str]
    reveal_type(p[:0])  # expect-type: tuple[()]
    return p[1:]
