# args: --entry step
# value_and_grad as an explicit backward graph (docs/ir-json.md,
# "Gradients"): the call of the grad value becomes a direct call of
# `loss.grad`, whose nodes are loss's forward nodes, then the adjoints in
# reverse order, then (value, gradient).
from __future__ import annotations
from fathom import *


def loss(w: Tensor[f32, (3,)], x: Tensor[f32, (B, 3)]):
    return mean(tanh(x @ w))


def step(w: Tensor[f32, (3,)], x: Tensor[f32, (B, 3)]):
    value, g = value_and_grad(loss)(w, x)
    return value, w - 0.1 * g
