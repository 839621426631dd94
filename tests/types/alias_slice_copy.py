# `ys = xs[::-1]` (any slice of a list) makes a new list, so a list that
# was appended to and is then replaced by its reversed copy keeps its
# items; binding an item (`y = xs[0]`) of a mutated list still shares.
from fathom import *


def reversed_steps(n):
    outputs = []
    for t in range(3):
        outputs.append(t * n)
    outputs = outputs[::-1]  # expect-type: list[i64=4, i64=2, i64=0]
    return outputs


def copy_then_grow():
    xs = [1, 2]
    ys = xs[:]
    xs.append(3)
    n = (len(xs), len(ys))  # expect-type: tuple[i64=3, i64=2]
    return n


def main():
    r = reversed_steps(2)  # expect-type: list[i64=4, i64=2, i64=0]
    return copy_then_grow()
