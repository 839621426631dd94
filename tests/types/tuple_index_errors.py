# Tuple indices must be ints (or bools).
def main():
    t = (1, 2, 3)
    a = t[1.0]  # expect-error: type-mismatch
    b = t['a']  # expect-error: type-mismatch
    c = t[None]  # expect-error: type-mismatch
    return 0
