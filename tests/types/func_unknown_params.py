# A function no call reaches runs with unknown parameters: no false alarms.
from typing import reveal_type


def helper(a, b):
    reveal_type(a)  # expect-type: unknown
    reveal_type(a + b)  # expect-type: unknown
    reveal_type(a * 2 + 1)  # expect-type: unknown
    reveal_type((a, b))  # expect-type: tuple[unknown, unknown]
    reveal_type(a(1))  # expect-type: unknown
    reveal_type(a[0])  # expect-type: unknown
    c = a if b else 1
    reveal_type(c)  # expect-type: unknown
    return a - b
