from fathom import *
from layers import head, proj


def main():
    x = zeros((2, 16))
    ok = head(x)  # expect-type: Tensor[f32, (2, 4)]
    bad = proj(x, zeros((8, 4)))  # expect-error: shape-mismatch
    return ok
