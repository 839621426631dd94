# A shape holds ints: a negative dim or a float is an error.
from __future__ import annotations
from fathom import *


def main():
    a = zeros((2, -1))  # expect-error: shape-mismatch
    b = ones((2.0, 3))  # expect-error: type-mismatch
    c = zeros("abc")  # expect-error: type-mismatch
    d = full((2,), "x")  # expect-error: type-mismatch
    return 0
