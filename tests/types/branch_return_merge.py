# Returns of different types on different paths.
def sign(n: int) -> int:
    if n > 0:  # expect-error: type-mismatch
        return 1
    return 'negative'


def ok_sign(n: int) -> int:
    if n > 0:
        return 1
    if n < 0:
        return -1
    return 0
