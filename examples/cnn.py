"""A LeNet-style CNN for 28x28 grey images: two conv2d + relu + max_pool2d
stages, flatten, two linear layers, and its cross-entropy loss with the
gradient for the classifier weights.  The batch size B is symbolic.
"""
from __future__ import annotations

from fathom import *

CLASSES = 10


def conv_block(x, w, padding):
    return max_pool2d(relu(conv2d(x, w, stride=1, padding=padding)), 2)


def features(x, c1, c2):
    h = conv_block(x, c1, 1)      # (B, 8, 14, 14)
    h = conv_block(h, c2, 0)      # (B, 16, 6, 6)
    return flatten(h, 1)          # (B, 576)


def classify(x, c1, c2, fc1, fb1, fc2, fb2):
    h = relu(linear(features(x, c1, c2), fc1, fb1))
    return linear(h, fc2, fb2)


@jit
def logits(x: Tensor[f32, (B, 1, 28, 28)], c1: Tensor[f32, (8, 1, 3, 3)],
           c2: Tensor[f32, (16, 8, 3, 3)], fc1: Tensor[f32, (64, 576)],
           fb1: Tensor[f32, (64,)], fc2: Tensor[f32, (10, 64)], fb2: Tensor[f32, (10,)]):
    return classify(x, c1, c2, fc1, fb1, fc2, fb2)


@jit
def head_grad(x: Tensor[f32, (B, 1, 28, 28)], labels: Tensor[i64, (B,)],
              c1: Tensor[f32, (8, 1, 3, 3)], c2: Tensor[f32, (16, 8, 3, 3)],
              fc1: Tensor[f32, (64, 576)], fb1: Tensor[f32, (64,)],
              fc2: Tensor[f32, (10, 64)], fb2: Tensor[f32, (10,)]):
    feats = relu(linear(features(x, c1, c2), fc1, fb1))

    def loss(w, b):
        logp = log_softmax(linear(feats, w, b))
        return -mean(reduce_sum(logp * one_hot(labels, CLASSES), axis=1))

    return value_and_grad(loss, argnums=(0, 1))(fc2, fb2)


@jit
def downsample(img: Tensor[f32, (B, 3, 32, 32)], w: Tensor[f32, (6, 3, 5, 5)]):
    y = conv2d(img, w, stride=2, padding=2)          # (B, 6, 16, 16)
    pooled = max_pool2d(y, (2, 4), (2, 4))           # (B, 6, 8, 4)
    return y, reshape(pooled, (img.shape[0], -1))    # (B, 192)


if __name__ == "__main__":
    b = 3
    x = random_uniform((b, 1, 28, 28))
    c1 = random_normal((8, 1, 3, 3)) * 0.3
    c2 = random_normal((16, 8, 3, 3)) * 0.1
    fc1 = random_normal((64, 576)) * 0.05
    fb1 = zeros((64,))
    fc2 = random_normal((CLASSES, 64)) * 0.1
    fb2 = zeros((CLASSES,))
    out = logits(x, c1, c2, fc1, fb1, fc2, fb2)
    assert out.shape == (b, CLASSES) and out.dtype == f32
    labels = arange(b)
    loss, (gw, gb) = head_grad(x, labels, c1, c2, fc1, fb1, fc2, fb2)
    assert loss.shape == () and gw.shape == fc2.shape and gb.shape == fb2.shape
    y, flat = downsample(random_uniform((2, 3, 32, 32)), random_normal((6, 3, 5, 5)))
    assert y.shape == (2, 6, 16, 16) and flat.shape == (2, 192)
    print("cnn ok: loss", float(loss))
