# Generator expressions in tuple(...) over a known iteration give tuples.
from typing import reveal_type


def main():
    reveal_type(tuple(x * 2 for x in (1, 2, 3)))  # expect-type: tuple[i64=2, i64=4, i64=6]
    reveal_type(tuple(i for i in range(3)))  # expect-type: tuple[i64=0, i64=1, i64=2]
    reveal_type(tuple(x for x in (1, 2, 3) if x != 2))  # expect-type: tuple[i64=1, i64=3]
    reveal_type(tuple(s + '!' for s in ('a', 'b')))  # expect-type: tuple[str='a!', str='b!']
    reveal_type(tuple(range(4)))  # expect-type: tuple[i64=0, i64=1, i64=2, i64=3]
    return 0


def doubled(t: tuple[int, int]) -> tuple[int, int]:
    d = tuple(2 * x for x in t)  # expect-type: tuple[i64, i64]
    return d
