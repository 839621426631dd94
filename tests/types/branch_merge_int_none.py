# None on one path and an int on the other: no optional values in the DSL.
def maybe(n: int) -> int:
    result = None
    if n > 0:  # expect-error: type-mismatch
        result = n
    return 0
