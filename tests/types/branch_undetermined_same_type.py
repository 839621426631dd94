# Branches on an unknown condition: both run, and values of one type join
# (two different constants forget the value; equal constants stay).
from typing import reveal_type


def pick(n: int) -> tuple[int, int, str]:
    x = 1 if n > 0 else 2  # expect-type: i64
    if n > 0:
        y = (1, 'a')
    else:
        y = (2, 'b')
    reveal_type(y)  # expect-type: tuple[i64, str]
    if n % 2 == 0:
        z = 5
    else:
        z = 5
    reveal_type(z)  # expect-type: i64=5
    return (x, z, y[1])
