# Unary operators on types that do not support them.
def main():
    a = ~1.5  # expect-error: type-mismatch
    b = -"abc"  # expect-error: type-mismatch
    c = -(1, 2)  # expect-error: type-mismatch
    d = +None  # expect-error: type-mismatch
    e = ~"x"  # expect-error: type-mismatch
    return 0
