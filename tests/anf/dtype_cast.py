# cast between dtypes, and a dtype object as a value.
from fathom import *


def to_half(x, dt=f16):
    y = cast(x, dt)
    return y, y.dtype


def main():
    return to_half(arange(4))
