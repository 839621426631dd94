# `@jit` marks an entry point.
from fathom import jit


@jit
def step(x, y):
    return x * y + 1


@jit
def entry():
    return step(2, 3)
