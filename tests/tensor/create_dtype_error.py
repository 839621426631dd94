# dtype= must be a dtype object (or int/float/bool), not a string.
from __future__ import annotations
from fathom import *


def main():
    a = zeros((2,), dtype="f32")  # expect-error: type-mismatch
    b = cast(ones((2,)), 3)  # expect-error: type-mismatch
    return 0
