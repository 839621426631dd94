# partial with keyword arguments, as functools.partial allows.
from functools import partial
from typing import reveal_type


def scale(x, factor=1, offset=0):
    return x * factor + offset


def main():
    triple = partial(scale, factor=3)
    reveal_type(triple(2))  # expect-type: i64=6
    reveal_type(triple(2, offset=1))  # expect-type: i64=7
    reveal_type(triple(2, factor=10))  # expect-type: i64=20
    return 0
