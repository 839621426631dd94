# min and max return one of their arguments (the first extreme one).
from typing import reveal_type


def main():
    reveal_type(min(3, 1, 2))  # expect-type: i64=1
    reveal_type(max(3, 1, 2))  # expect-type: i64=3
    reveal_type(max(1, 2.5))  # expect-type: f64=2.5
    reveal_type(min(1, 2.5))  # expect-type: i64=1
    reveal_type(max((4, 9, 2)))  # expect-type: i64=9
    reveal_type(min('b', 'a'))  # expect-type: str='a'
    reveal_type(max(2, 2.0))  # expect-type: i64=2
    reveal_type(min(-1.0, -1))  # expect-type: f64=-1.0
    reveal_type(max((1, 2), (1, 3)))  # expect-type: tuple[i64=1, i64=3]
    reveal_type(max(True, 0))  # expect-type: bool=True
    return 0


def clamp(n: int, lo: int, hi: int) -> int:
    r = max(lo, min(n, hi))  # expect-type: i64
    reveal_type(max(n, 0))  # expect-type: i64
    reveal_type(min(n, n))  # expect-type: i64
    return r
