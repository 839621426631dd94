# Conversions of values CPython cannot convert (TypeError).
def main():
    a = int((1, 2))  # expect-error: type-mismatch
    b = float(None)  # expect-error: type-mismatch
    c = int(None)  # expect-error: type-mismatch
    d = float((1.5,))  # expect-error: type-mismatch
    return 0
