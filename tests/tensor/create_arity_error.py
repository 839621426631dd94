# Creation ops take their documented arguments.
from __future__ import annotations
from fathom import *


def main():
    a = zeros()  # expect-error: arity
    b = zeros((2,), f32, 3)  # expect-error: arity
    c = ones((2,), order="C")  # expect-error: arity
    d = full((2,))  # expect-error: arity
    return 0
