# grad(f) takes f's arguments and returns the gradient w.r.t. argument 0,
# with that argument's abstract value.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def loss(w: Tensor[f32, (D, C)], x: Tensor[f32, (B, D)]):
    return mean(softmax(x @ w))


def square(v: float):
    return v * v


def train(w: Tensor[f32, (D, C)], x: Tensor[f32, (B, D)]):
    g = grad(loss)(w, x)
    reveal_type(g)  # expect-type: Tensor[f32, (D, C)]
    reveal_type(w - 0.1 * g)  # expect-type: Tensor[f32, (D, C)]
    reveal_type(grad(loss, argnums=1)(w, x))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(grad(square)(3.0))  # expect-type: f64
    df = grad(square)
    reveal_type(df(1.5) + df(2.5))  # expect-type: f64
    return w
