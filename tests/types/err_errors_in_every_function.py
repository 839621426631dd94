# Errors in functions no call reaches are found too when they are definite.
def never_called(x):
    t = (1, 2)
    return t[7] + x  # expect-error: index-out-of-range


def also_never(y):
    return len(3) + y  # expect-error: type-mismatch


def main():
    return 0
