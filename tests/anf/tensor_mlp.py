# A two-layer perceptron: matmul, broadcasting add, relu and softmax.
from __future__ import annotations

from fathom import *


@jit
def mlp(x: Tensor[f32, (B, 784)], w1: Tensor[f32, (784, 128)], b1: Tensor[f32, (128,)],
        w2: Tensor[f32, (128, 10)]):
    h = relu(x @ w1 + b1)
    logits = matmul(h, w2)
    return softmax(logits, axis=-1)
