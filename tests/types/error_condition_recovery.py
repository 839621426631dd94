# A test whose condition is an error (reported where the bad value was
# made) does not end the path: the statements after it are still checked,
# as a compiler goes on after an error, and its merge is silent.
from fathom import *


def square(x):
    return x @ x  # expect-error: shape-mismatch


def main():
    y = square(ones((2, 3)))
    assert y.shape == (2, 2)
    if y.ndim == 2:
        k = 1
    else:
        k = "two"
    z = ones((2, 3)) + ones((3, 2))  # expect-error: shape-mismatch
    return k, z
