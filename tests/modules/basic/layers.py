# A module of the program: constants and functions that main.py imports.
from fathom import *

WIDTH = 8
SCALE = 2.5


def dense(x: Tensor[f32, (4, 8)], w: Tensor[f32, (8, 16)]):
    return x @ w


def scaled(n):
    return n * SCALE
