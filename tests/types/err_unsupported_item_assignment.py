# Tuples and strings are immutable: assigning to an item is a TypeError in
# CPython, so fathom reports it (lists and tensors support it: language.md 3).
def main():
    t = (1, 2)
    t[0] = 5  # expect-error: type-mismatch
    s = "ab"
    s[1] = "c"  # expect-error: type-mismatch
    return t
