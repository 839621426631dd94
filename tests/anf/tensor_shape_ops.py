# Shape operations: reshape, transpose, concat, stack, expand_dims, squeeze.
from fathom import *


def shapes(x, y):
    a = reshape(x, (-1,))
    b = transpose(x, (1, 0))
    c = concat((x, y), axis=0)
    d = stack((x, y), axis=0)
    e = expand_dims(x, 0)
    f = squeeze(e, 0)
    g = split(c, 2, axis=0)
    return a, b, c, d, e, f, g


def main():
    return shapes(zeros((2, 3)), ones((2, 3)))
