# expect: attribute error for `math.sqroot` (suggesting `sqrt`); exit 1.
import math


def root(x):
    return math.sqroot(x)
