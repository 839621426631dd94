# functools.partial binds leading arguments.
from functools import partial


def scale(k, x):
    return k * x


def main():
    triple = partial(scale, 3)
    return triple(5)
