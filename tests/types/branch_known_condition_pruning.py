# A branch whose condition is known is not taken, but it is still checked
# when a flag decides it (a named constant, a comparison of numbers):
# errors there are reported with a note.  A written literal (`if False:`,
# `while False:`) and structural tests (len, isinstance) make code dead on
# purpose: nothing in it is reported.
from typing import reveal_type

DEBUG = False


def main():
    if DEBUG:
        return 1 + 'a'  # expect-error: type-mismatch
    if False:
        x = (1, 2)[5]
    t = (1, 2)
    if len(t) == 3:
        y = t[2]
    n = 4
    if isinstance(n, str):
        z = n + 'x'
    while False:
        w = len(5)
    r = 1 if True else 'a'  # expect-type: i64=1
    if n > 10:
        r = r + 'never'  # expect-error: type-mismatch
    return r
