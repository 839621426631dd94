# args: --entry forward
# A two-layer perceptron with fixed sizes: every node of the typed graph
# has a concrete shape (examples/backend prints FLOPs and bytes from it).
from __future__ import annotations
from fathom import *


def layer(x, w, b):
    return relu(x @ w.T + b)


def forward(x: Tensor[f32, (32, 784)], w1: Tensor[f32, (128, 784)],
            b1: Tensor[f32, (128,)], w2: Tensor[f32, (10, 128)],
            b2: Tensor[f32, (10,)]) -> Tensor[f32, (32, 10)]:
    h = layer(x, w1, b1)
    logits = h @ w2.T + b2
    return softmax(logits, axis=-1)
