# A merge mismatch is reported at the branch point where the two sides
# meet: the if for the outer join, the elif for the inner one.
def outer_mismatch(n: int) -> int:
    if n > 0:  # expect-error: type-mismatch
        x = 1
    elif n < 0:
        x = 'a'
    else:
        x = 'b'
    return 0


def inner_mismatch(n: int) -> int:
    if n > 0:
        y = 1
    elif n < 0:  # expect-error: type-mismatch
        y = 2
    else:
        y = 'zero'
    return 0
