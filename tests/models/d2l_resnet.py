"""ResNet with the `Residual` block, translated from d2l-ai/d2l-en
chapter_convolutional-modern/resnet.md (PyTorch tab: Residual with
use_1x1conv and strides, ResNet.b1, ResNet.block with first_block, the
global average pool and the linear head).

Changed: classes became functions over weight tuples (the `conv3` slot is
None without the 1x1 convolution, as in the original); LazyBatchNorm2d in
training mode is a batch_norm2d helper; MaxPool2d(3, 2, padding=1) has no
padding (the DSL's max_pool2d has none); AdaptiveAvgPool2d + Flatten is a
mean over H and W.  Channel counts are tiny so the file runs fast.
"""
import math

from fathom import *


def conv_params(in_ch, out_ch, k):
    return random_normal((out_ch, in_ch, k, k)) * math.sqrt(2.0 / (in_ch * k * k))


def bn_params(c):
    return ones((1, c, 1, 1)), zeros((1, c, 1, 1))


def batch_norm2d(X, gamma, beta, eps=1e-5):
    mu = mean(X, axis=(0, 2, 3), keepdims=True)
    v = mean((X - mu) ** 2, axis=(0, 2, 3), keepdims=True)
    return gamma * (X - mu) / sqrt(v + eps) + beta


def residual_params(in_ch, num_channels, use_1x1conv=False, strides=1):
    conv1 = conv_params(in_ch, num_channels, 3)
    conv2 = conv_params(num_channels, num_channels, 3)
    if use_1x1conv:
        conv3 = conv_params(in_ch, num_channels, 1)
    else:
        conv3 = None
    return conv1, bn_params(num_channels), conv2, bn_params(num_channels), conv3, strides


def residual(X, p):
    conv1, bn1, conv2, bn2, conv3, strides = p
    Y = relu(batch_norm2d(conv2d(X, conv1, stride=strides, padding=1), bn1[0], bn1[1]))
    Y = batch_norm2d(conv2d(Y, conv2, padding=1), bn2[0], bn2[1])
    if conv3 is not None:
        X = conv2d(X, conv3, stride=strides)
    Y = Y + X
    return relu(Y)


def b1(X, w, bn):
    Y = relu(batch_norm2d(conv2d(X, w, stride=2, padding=3), bn[0], bn[1]))
    return max_pool2d(Y, 3, 2)


def block_params(num_residuals, in_ch, num_channels, first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(residual_params(in_ch, num_channels, use_1x1conv=True, strides=2))
        else:
            blk.append(residual_params(num_channels, num_channels))
    return blk


def resnet_params(arch, in_ch, stem_ch, num_classes):
    stem = (conv_params(in_ch, stem_ch, 7), bn_params(stem_ch))
    stages = []
    c = stem_ch
    for i, b in enumerate(arch):
        stages.append(block_params(b[0], c, b[1], first_block=(i == 0)))
        c = b[1]
    head = (random_normal((num_classes, c)) * 0.01, zeros((num_classes,)))
    return stem, stages, head


def resnet(X, params):
    stem, stages, head = params
    Y = b1(X, stem[0], stem[1])
    for stage in stages:
        for p in stage:
            Y = residual(Y, p)
    Y = mean(Y, axis=(2, 3))
    return linear(Y, head[0], head[1])


if __name__ == "__main__":
    blk = residual_params(3, 6, use_1x1conv=True, strides=2)
    X = random_normal((4, 3, 6, 6))
    assert residual(X, blk).shape == (4, 6, 3, 3)
    params = resnet_params(((2, 4), (2, 8)), 1, 4, 10)
    logits = resnet(random_normal((2, 1, 32, 32)), params)
    assert logits.shape == (2, 10)
    print("d2l resnet ok")
