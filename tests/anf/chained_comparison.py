# Chained comparisons evaluate each middle operand once.
def in_range(lo, x, hi):
    return lo <= x < hi


def ordered(a, b, c, d):
    return a < b <= c < d


def same(a, b, c):
    return a == b == c != 0
