# A partial application still checks the total number of arguments.
from functools import partial


def add(a, b):
    return a + b


def main():
    inc = partial(add, 1)
    a = inc(2, 3)  # expect-error: arity
    b = partial(add, 1, 2, 3)()  # expect-error: arity
    return 0
