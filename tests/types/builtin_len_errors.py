# len() of a number or None is a TypeError; len takes one argument.
def main():
    a = len(5)  # expect-error: type-mismatch
    b = len(None)  # expect-error: type-mismatch
    c = len(2.5)  # expect-error: type-mismatch
    d = len((1,), (2,))  # expect-error: arity
    e = len()  # expect-error: arity
    return 0
