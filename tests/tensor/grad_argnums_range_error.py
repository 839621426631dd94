# argnums must name a positional argument of the call.
from __future__ import annotations
from fathom import *


def f(x, y):
    return reduce_sum(x * y)


def main(w: Tensor[f32, (3,)]):
    a = grad(f, argnums=2)(w, w)  # expect-error: index-out-of-range
    b = grad(f, argnums=-1)  # expect-error: type-mismatch
    c = grad(f, argnums=(0, 5))(w, w)  # expect-error: index-out-of-range
    d = grad(3)  # expect-error: not-callable
    return w
