# expect-error at line 21: shape-mismatch
# Planted bug: the first conv drops padding=2, so the flattened features have 8 elements, not 32.
"""A small LeNet-5 style CNN on 1x12x12 images: padded conv, pooling, conv,
pooling, flatten, three linear layers, cross-entropy and an SGD step."""
from __future__ import annotations

from fathom import *

CLASSES = 10


def features(x, c1, c2):
    x = relu(conv2d(x, c1, stride=1))     # (B, 4, 12, 12)
    x = max_pool2d(x, 2, 2)                          # (B, 4, 6, 6)
    x = relu(conv2d(x, c2))                          # (B, 8, 4, 4)
    x = max_pool2d(x, 2, 2)                          # (B, 8, 2, 2)
    return flatten(x, 1)                             # (B, 32)


def classifier(h, f1, b1, f2, b2, f3, b3):
    h = relu(linear(h, f1, b1))
    h = relu(linear(h, f2, b2))
    return linear(h, f3, b3)


def loss_fn(params, x, y):
    c1, c2, f1, b1, f2, b2, f3, b3 = params
    logits = classifier(features(x, c1, c2), f1, b1, f2, b2, f3, b3)
    return -mean(reduce_sum(log_softmax(logits) * one_hot(y, CLASSES), axis=-1))


@jit
def train_step(c1: Tensor[f32, (4, 1, 5, 5)], c2: Tensor[f32, (8, 4, 3, 3)],
               f1: Tensor[f32, (24, 32)], b1: Tensor[f32, (24,)],
               f2: Tensor[f32, (16, 24)], b2: Tensor[f32, (16,)],
               f3: Tensor[f32, (10, 16)], b3: Tensor[f32, (10,)],
               x: Tensor[f32, (B, 1, 12, 12)], y: Tensor[i64, (B,)]):
    params = (c1, c2, f1, b1, f2, b2, f3, b3)
    loss, grads = value_and_grad(loss_fn)(params, x, y)
    return loss, tuple(p - 0.01 * g for p, g in zip(params, grads))


@jit
def accuracy(c1: Tensor[f32, (4, 1, 5, 5)], c2: Tensor[f32, (8, 4, 3, 3)],
             f1: Tensor[f32, (24, 32)], b1: Tensor[f32, (24,)],
             f2: Tensor[f32, (16, 24)], b2: Tensor[f32, (16,)],
             f3: Tensor[f32, (10, 16)], b3: Tensor[f32, (10,)],
             x: Tensor[f32, (B, 1, 12, 12)], y: Tensor[i64, (B,)]):
    logits = classifier(features(x, c1, c2), f1, b1, f2, b2, f3, b3)
    return mean(cast(argmax(logits, axis=1) == y, f32))


if __name__ == "__main__":
    params = (random_normal((4, 1, 5, 5)) * 0.1, random_normal((8, 4, 3, 3)) * 0.1,
              random_normal((24, 32)) * 0.1, zeros((24,)),
              random_normal((16, 24)) * 0.1, zeros((16,)),
              random_normal((10, 16)) * 0.1, zeros((10,)))
    x = random_uniform((2, 1, 12, 12))
    y = arange(2)
    loss, new = train_step(*params, x, y)
    assert loss.shape == () and all(p.shape == q.shape for p, q in zip(params, new))
    acc = accuracy(*new, x, y)
    assert acc.shape == () and acc.dtype == f32
    print("lenet ok", float(loss))
