# An error that happens only for one call of a helper, on what that call
# passed: reported at the call (the helper works for the other one), with
# a note at the division.
from typing import reveal_type


def div_first(t):
    return t[0] / t[1]


def main():
    reveal_type(div_first((1, 2)))  # expect-type: f64=0.5
    b = div_first((1, 'x'))  # expect-error: type-mismatch
    return 0
