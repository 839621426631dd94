# Tensor reductions with axis and keepdims.
from fathom import *


def norms(x):
    total = reduce_sum(x)
    rows = sum(x, axis=1)
    mu = mean(x, axis=0, keepdims=True)
    sd = std(x, axis=-1)
    best = argmax(x, axis=1)
    return total, rows, mu, sd, best, max(x)


def main():
    return norms(ones((3, 5), dtype=f32))
