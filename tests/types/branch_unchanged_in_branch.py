# A variable not changed by an unknown branch keeps its constant.
from typing import reveal_type


def f(n: int) -> int:
    x = 7
    y = 0
    if n > 0:
        y = 1
    else:
        y = 2
    reveal_type(x)  # expect-type: i64=7
    if n > 5:
        x = x
    reveal_type(x)  # expect-type: i64=7
    reveal_type(y)  # expect-type: i64
    return x + y
