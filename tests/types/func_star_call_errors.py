# Spreading a tuple of the wrong length, or spreading a number.
def add(a, b):
    return a + b


def main():
    a = add(*(1, 2, 3))  # expect-error: arity
    b = add(*(1,))  # expect-error: arity
    c = add(*5)  # expect-error: type-mismatch
    return 0
