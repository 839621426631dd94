# f must return a float scalar or a one-element tensor.
from __future__ import annotations
from fathom import *


def per_item(w: Tensor[f32, (4,)]):
    return w * 2


def vec(w: Tensor[f32, (N,)]):
    return w


def count(w: Tensor[f32, (4,)]):
    return 3


def main(w: Tensor[f32, (4,)], v: Tensor[f32, (N,)]):
    a = grad(per_item)(w)  # expect-error: shape-mismatch
    b = grad(vec)(v)  # expect-error: shape-mismatch
    c = grad(count)(w)  # expect-error: type-mismatch
    d = grad(lambda u: (u, u))(w)  # expect-error: type-mismatch
    return w
