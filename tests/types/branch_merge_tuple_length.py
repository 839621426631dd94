# Tuples of different lengths cannot be joined.
def shape(n: int) -> int:
    if n > 0:  # expect-error: type-mismatch
        t = (1, 2)
    else:
        t = (1, 2, 3)
    return 0
