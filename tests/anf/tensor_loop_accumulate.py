# A loop that accumulates a tensor over a range.
from fathom import *


def accumulate(x, steps):
    acc = zeros_like(x)
    for i in range(steps):
        acc = acc + x * i
    return acc


def main():
    return accumulate(ones((2, 2), dtype=f32), 3)
