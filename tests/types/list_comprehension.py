# List comprehensions give lists (of known length over a known-length
# iterable); the loop variable does not leak.
from typing import reveal_type


def main():
    reveal_type([x * 2 for x in range(3)])  # expect-type: list[i64=0, i64=2, i64=4]
    reveal_type([x for x in (1, 2, 3) if x > 1])  # expect-type: list[i64=2, i64=3]
    reveal_type([s + '!' for s in ('a', 'b')])  # expect-type: list[str='a!', str='b!']
    reveal_type([x / 2 for x in [1, 2]])  # expect-type: list[f64=0.5, f64=1.0]
    return 0


def evens(n: int) -> list[int]:
    r = [i for i in range(n) if i % 2 == 0]  # expect-type: list[i64]
    return r
