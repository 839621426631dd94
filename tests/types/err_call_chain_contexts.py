# An error that happens only for one call of a helper.
from typing import reveal_type


def div_first(t):
    return t[0] / t[1]  # expect-error: type-mismatch


def main():
    reveal_type(div_first((1, 2)))  # expect-type: f64=0.5
    b = div_first((1, 'x'))
    return 0
