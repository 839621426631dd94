# Tuples concatenate only with tuples and repeat only by ints.
def main():
    a = (1, 2) + 3  # expect-error: type-mismatch
    b = (1,) + [2]  # expect-error: type-mismatch
    c = (1,) * 2.0  # expect-error: type-mismatch
    d = (1,) * (2,)  # expect-error: type-mismatch
    e = 'a' + (1,)  # expect-error: type-mismatch
    return 0
