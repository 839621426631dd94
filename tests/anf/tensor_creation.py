# Tensor creation functions with dtypes.
from fathom import *


def make(n):
    a = zeros((n, 4))
    b = ones((n, 4), dtype=f16)
    c = full((2, 2), 7, dtype=i32)
    d = arange(n)
    e = eye(3)
    f = zeros_like(a)
    g = random_normal((n, 4), dtype=f32)
    return a, b, c, d, e, f, g
