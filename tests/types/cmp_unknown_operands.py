# In a function no call reaches, parameters are unknown: comparisons give
# unknown, while `is`, `not` and truth tests always give a bool.
from typing import reveal_type


def probe(x, y):
    reveal_type(x)  # expect-type: unknown
    reveal_type(x < 1)  # expect-type: unknown
    reveal_type(x == y)  # expect-type: unknown
    reveal_type(x is None)  # expect-type: bool
    reveal_type(not x)  # expect-type: bool
    reveal_type(x + 1)  # expect-type: unknown
    reveal_type((x, 1))  # expect-type: tuple[unknown, i64=1]
    return x
