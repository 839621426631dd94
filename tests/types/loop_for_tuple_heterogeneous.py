# for over a tuple whose items have different types: each trip is exact.
from typing import reveal_type


def main():
    n = 0
    for x in (1, 'a', 2.5):
        reveal_type(x)  # expect-type: f64=2.5 | i64=1 | str='a'
        n += 1
    reveal_type(n)  # expect-type: i64=3
    parts = ()
    for y in ((1, 2), 'b', None):
        parts = parts + (y,)
    reveal_type(parts)  # expect-type: tuple[tuple[i64=1, i64=2], str='b', none]
    return n
