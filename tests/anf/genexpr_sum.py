# Generator expressions as the argument of sum(), min() and max().
def stats(t):
    total = sum(x for x in t)
    sq = sum(x * x for x in t)
    lo = min(x for x in t)
    return total, sq, lo


def main():
    return stats((3, 1, 2))
