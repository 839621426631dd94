# More unsupported constructs: a module that is not found (an error), a starred target, yield.
import os  # expect-error: unresolved-import


def split(t):
    first, *rest = t  # expect-warning: unsupported
    return first


def gen(n):
    yield n  # expect-warning: unsupported


def main():
    return 0
