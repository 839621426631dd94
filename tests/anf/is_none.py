# `is None` and `is not None` comparisons.
def or_default(x, d=None):
    if d is None:
        d = 0
    if x is not None:
        return x
    return d


def main():
    return or_default(None), or_default(3, 4)
