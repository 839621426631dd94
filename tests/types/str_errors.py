# str mixes with numbers only in repetition by an int.
def main():
    a = 'a' + 1  # expect-error: type-mismatch
    b = 'a' * 2.0  # expect-error: type-mismatch
    c = 'a' - 'b'  # expect-error: type-mismatch
    d = 1 + 'a'  # expect-error: type-mismatch
    e = 'ab' / 2  # expect-error: type-mismatch
    f = 'ab' * 'c'  # expect-error: type-mismatch
    return 0
