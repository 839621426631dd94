# An error diagnostic: signatures still print, diagnostics go to stderr,
# the exit status is 1.
def half(n: int) -> int:
    return n / 2
