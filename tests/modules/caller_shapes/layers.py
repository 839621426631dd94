# Nothing here is wrong on its own: proj only fails for the shapes main.py
# passes, and works for head's call, so the error is reported in main.py at
# the call that passes them, with a note here at the matmul.
from fathom import *


def proj(x, w):
    return x @ w


def head(x):
    return proj(x, zeros((16, 4)))
