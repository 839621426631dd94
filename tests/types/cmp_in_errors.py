# `in` needs a container; `in <str>` needs a str on the left.
def main():
    a = 1 in 'abc'  # expect-error: type-mismatch
    b = 2 in 5  # expect-error: type-mismatch
    c = 'a' in None  # expect-error: type-mismatch
    return 0
