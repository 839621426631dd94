# enumerate over a tuple: index and item of every trip are known.
from typing import reveal_type


def main():
    total = 0
    for i, x in enumerate((10, 20, 30)):
        reveal_type(i)  # expect-type: i64=0 | i64=1 | i64=2
        reveal_type(x)  # expect-type: i64=10 | i64=20 | i64=30
        total += i * x
    reveal_type(total)  # expect-type: i64=80
    for j, s in enumerate(('a', 'b'), 1):
        reveal_type(j)  # expect-type: i64=1 | i64=2
        reveal_type(s)  # expect-type: str='a' | str='b'
    return total


def weighted(t: tuple[int, int, int]) -> int:
    acc = 0
    for i, x in enumerate(t):
        acc += i * x
    reveal_type(acc)  # expect-type: i64
    return acc
