# Only float arguments can be differentiated.
from __future__ import annotations
from fathom import *


def f(x):
    return reduce_sum(x * 1.5)


def main(i: Tensor[i32, (3,)], w: Tensor[f32, (3,)]):
    a = grad(f)(i)  # expect-error: type-mismatch
    b = grad(lambda n: n * 1.5)(3)  # expect-error: type-mismatch
    c = grad(f)(w)
    return c
