# Bitwise operators reject floats (TypeError in CPython).
def main():
    a = 1.5 & 1  # expect-error: type-mismatch
    b = 2 | 0.5  # expect-error: type-mismatch
    c = 1.0 << 2  # expect-error: type-mismatch
    d = 8 >> 1.0  # expect-error: type-mismatch
    e = "a" ^ 1  # expect-error: type-mismatch
    return 0
