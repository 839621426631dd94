# More unsupported constructs: another module, a starred target, yield.
import os  # expect-warning: unsupported


def split(t):
    first, *rest = t  # expect-warning: unsupported
    return first


def gen(n):
    yield n  # expect-warning: unsupported


def main():
    return 0
