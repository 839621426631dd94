# A shape mismatch two calls deep: the json and sarif goldens show the call
# chain (related notes; SARIF relatedLocations and a codeFlow) and where
# each dim came from.
from fathom import *


def inner(x, w):
    return x @ w


def outer(x, w):
    return inner(x, w)


@jit
def main(x: Tensor[f32, (B, 3)], w: Tensor[f32, (4, 5)]):
    return outer(x, w)
