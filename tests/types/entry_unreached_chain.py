# A function reached only from a function no call reaches gets values
# derived from unknown parameters.
from typing import reveal_type


def outer(a):
    return inner(a, 1)


def inner(p, q):
    reveal_type(p)  # expect-type: unknown
    reveal_type(q)  # expect-type: i64=1
    return p + q
