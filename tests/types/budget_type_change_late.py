# args: --max-contexts 8
# A loop cut short by the context budget, whose variable would change
# type on a later trip (`x = 1.5` on the last one): the widened trips merge
# softly, as the exact unrolling would have found no error, only a value
# (CPython returns 1.5).  The budget warning says precision is lost, and
# the result is unknown, not a merge error.
from typing import reveal_type


def late_float():
    x = 0
    for i in range(20):  # expect-warning: budget
        if i == 19:
            x = 1.5
    reveal_type(x)  # expect-type: unknown
    return x
