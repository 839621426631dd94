# Tensor indexing: integer, slice, `x[:, 0]`, `x[..., 1]`, `x[None]`.
from fathom import *


def views(x):
    row = x[0]
    col = x[:, 0]
    last = x[..., 1]
    batch = x[None]
    part = x[1:3]
    rev = x[::-1]
    both = x[1:, :2]
    return row, col, last, batch, part, rev, both


def main():
    return views(zeros((4, 3), dtype=f32))
