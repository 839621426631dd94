# An int on one path and a float on the other cannot be joined (DSL rule).
def mixed(n: int) -> int:
    if n > 0:  # expect-error: type-mismatch
        x = 1
    else:
        x = 2.0
    return 0
