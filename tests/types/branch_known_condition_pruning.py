# A branch whose condition is known false is dead: the type errors in it
# must not be reported.
from typing import reveal_type

DEBUG = False


def main():
    if DEBUG:
        return 1 + 'a'
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
        r = r + 'never'
    return r
