# A definite error inside a nested function that is never called is found.
def main():
    def inner():
        return 1 + 'a'  # expect-error: type-mismatch
    return 0
