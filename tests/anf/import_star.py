# `from fathom import *` brings tensor ops and dtypes into scope.
from fathom import *


def make(n):
    x = zeros((n, 3), dtype=f32)
    y = ones((n, 3), dtype=f32)
    return relu(x + y)


def main():
    return make(4)
