# Attribute access and method calls on tensors.
from fathom import *


def info(x):
    n, m = x.shape
    t = x.T
    flat = x.reshape((n * m,))
    total = x.sum(axis=0)
    avg = x.mean()
    return x.dtype, x.ndim, x.size, t, flat, total, avg


def main():
    return info(ones((2, 3), dtype=f32))
