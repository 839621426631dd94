"""A two-layer MLP classifier for MNIST-sized inputs and its training step.

The loss is differentiated with `value_and_grad` over the tuple of
parameters, and `grad` gives the input saliency map.  Batch size B and the
hidden width H are symbolic.
"""
from __future__ import annotations

from fathom import *

CLASSES = 10
LR = 0.05
WEIGHT_DECAY = 1e-4


def forward(params, x):
    w1, b1, w2, b2 = params
    h = relu(linear(x, w1, b1))
    return linear(h, w2, b2)


def cross_entropy(logits, labels):
    logp = log_softmax(logits, axis=-1)
    picked = reduce_sum(logp * one_hot(labels, CLASSES), axis=-1)
    return -mean(picked)


def loss_fn(params, x, labels):
    w1, b1, w2, b2 = params
    penalty = reduce_sum(w1 * w1) + reduce_sum(w2 * w2)
    return cross_entropy(forward(params, x), labels) + WEIGHT_DECAY * penalty


def sgd(params, grads, lr):
    return tuple(p - lr * g for p, g in zip(params, grads))


@jit
def train_step(w1: Tensor[f32, (H, 784)], b1: Tensor[f32, (H,)],
               w2: Tensor[f32, (10, H)], b2: Tensor[f32, (10,)],
               x: Tensor[f32, (B, 784)], labels: Tensor[i64, (B,)]):
    params = (w1, b1, w2, b2)
    loss, grads = value_and_grad(loss_fn)(params, x, labels)
    return loss, sgd(params, grads, LR)


@jit
def accuracy(w1: Tensor[f32, (H, 784)], b1: Tensor[f32, (H,)],
             w2: Tensor[f32, (10, H)], b2: Tensor[f32, (10,)],
             x: Tensor[f32, (B, 784)], labels: Tensor[i64, (B,)]):
    logits = forward((w1, b1, w2, b2), x)
    predicted = argmax(logits, axis=1)
    return mean(cast(predicted == labels, f32))


@jit
def saliency(w1: Tensor[f32, (H, 784)], b1: Tensor[f32, (H,)],
             w2: Tensor[f32, (10, H)], b2: Tensor[f32, (10,)],
             x: Tensor[f32, (B, 784)], labels: Tensor[i64, (B,)]):
    def loss_of_input(inputs):
        return loss_fn((w1, b1, w2, b2), inputs, labels)

    g = grad(loss_of_input)(x)
    return reshape(abs(g), (x.shape[0], 28, 28))


if __name__ == "__main__":
    hidden = 8
    w1 = random_normal((hidden, 784)) * 0.05
    b1 = zeros((hidden,))
    w2 = random_normal((CLASSES, hidden)) * 0.1
    b2 = zeros((CLASSES,))
    x = random_uniform((4, 784))
    labels = arange(4) % CLASSES
    loss, params = train_step(w1, b1, w2, b2, x, labels)
    assert loss.shape == () and loss.dtype == f32
    for old, new in zip((w1, b1, w2, b2), params):
        assert old.shape == new.shape and new.dtype == f32
    acc = accuracy(*params, x, labels)
    assert acc.shape == () and 0.0 <= float(acc) <= 1.0
    sal = saliency(*params, x[:1], labels[:1])
    assert sal.shape == (1, 28, 28) and sal.dtype == f32
    print("mlp ok: loss", float(loss), "accuracy", float(acc))
