# `@=` and `+=` on tensors.
from fathom import *


def chain(x, w1, w2):
    x @= w1
    x @= w2
    x += 1.0
    return x


def main():
    x = ones((2, 3), dtype=f32)
    return chain(x, ones((3, 4), dtype=f32), ones((4, 5), dtype=f32))
