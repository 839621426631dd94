# abs() of a str, a tuple or None is a TypeError.
def main():
    a = abs('a')  # expect-error: type-mismatch
    b = abs((1, 2))  # expect-error: type-mismatch
    c = abs(None)  # expect-error: type-mismatch
    d = abs(1, 2)  # expect-error: arity
    return 0
