# Nothing here is wrong on its own: proj only fails for the shapes main.py
# passes, so the error is reported here, at the matmul, with a note at the
# call in main.py.
from fathom import *


def proj(x, w):
    return x @ w  # expect-error: shape-mismatch


def head(x):
    return proj(x, zeros((16, 4)))
