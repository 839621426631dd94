# The model examples/backend walks: a two-layer perceptron with softmax
# cross-entropy.  B (the batch) is symbolic: the backend takes its value on
# the command line (B=64); the other sizes are fixed.
from __future__ import annotations
from fathom import *


def mlp(x: Tensor[f32, (B, 784)], w1: Tensor[f32, (256, 784)], b1: Tensor[f32, (256,)],
        w2: Tensor[f32, (10, 256)], b2: Tensor[f32, (10,)],
        labels: Tensor[f32, (B, 10)]) -> Tensor[f32, ()]:
    h = relu(x @ w1.T + b1)
    logits = linear(h, w2, b2)
    return mean(reduce_sum(-labels * log_softmax(logits, axis=-1), axis=-1))


def train_step(x: Tensor[f32, (B, 784)], w1: Tensor[f32, (256, 784)], b1: Tensor[f32, (256,)],
               w2: Tensor[f32, (10, 256)], b2: Tensor[f32, (10,)],
               labels: Tensor[f32, (B, 10)]):
    # value_and_grad is a backward graph `mlp.grad` in the typed graph:
    # the backend walks its adjoint ops like any others
    loss, grads = value_and_grad(mlp, argnums=(1, 2, 3, 4))(x, w1, b1, w2, b2, labels)
    return loss, grads
