# min/max need comparable values and at least one argument.
def main():
    a = min(1, 'a')  # expect-error: type-mismatch
    b = max()  # expect-error: arity
    c = max(5)  # expect-error: type-mismatch
    d = min((1, 2), 3)  # expect-error: type-mismatch
    return 0
