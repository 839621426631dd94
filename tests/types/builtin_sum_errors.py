# sum() of strings fails at 0 + 'a'; sum of a number is not iterable.
def main():
    a = sum(('a', 'b'))  # expect-error: type-mismatch
    b = sum(5)  # expect-error: type-mismatch
    c = sum((1, None))  # expect-error: type-mismatch
    return 0
