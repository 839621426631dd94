# The C API's walk (examples/walk/walk.c): dims as expression trees over
# the symbols B and T, constants of several kinds, a default, keywords, a
# call through a function value and a grad target.
from __future__ import annotations
from fathom import *


def loss(w: Tensor[f32, (T, 4)], x: Tensor[f32, (B, T)]):
    return mean(x @ w)


def pick(x: Tensor[f32, (B, T)], n: int = 2):
    return x[:, n:]


def model(x: Tensor[f32, (B, T)], w: Tensor[f32, (T, 4)], flag: bool, k: float):
    both = concat((x, x), axis=1)
    b, t = x.shape
    pairs = reshape(both, (b, t, 2))
    half = x[:, : t // 2]
    f = (lambda v: v * k) if flag else (lambda v: v + 1.0)
    val, g = value_and_grad(loss)(w, x)
    return pick(both), pairs, half, f(val), g, (1, "a", True, 2.5, None)
