# Orderings CPython cannot decide raise TypeError: type-mismatch.
def main():
    a = 1 < 'a'  # expect-error: type-mismatch
    b = None < None  # expect-error: type-mismatch
    c = (1, 2) < (1, 'a')  # expect-error: type-mismatch
    d = 'a' >= 2.5  # expect-error: type-mismatch
    e = (1,) > 1  # expect-error: type-mismatch
    return 0
