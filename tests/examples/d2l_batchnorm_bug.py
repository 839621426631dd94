# expect-error at line 20: type-mismatch
# Planted bug: the prediction-mode branch divides by math.sqrt of the moving variance, a (1, C) tensor; main only trains (is_training=True), so only the branch the flag turns off is wrong.
"""Batch normalisation from scratch and the LeNet that uses it, translated
from d2l-ai/d2l-en chapter_convolutional-modern/batch-norm.md (PyTorch tab:
batch_norm with its prediction-mode branch and the `len(X.shape) == 2`
branch, the BatchNorm module with num_dims, BNLeNetScratch).

Changed: torch.is_grad_enabled() is an `is_training` argument; the module's
moving statistics are returned instead of stored on self; AvgPool2d(2, 2)
is avg_pool2d(x, 2); LazyConv2d/LazyLinear get
explicit input sizes.  One training step on a batch of 28x28 images.
"""
import math

from fathom import *


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum, is_training):
    if not is_training:
        X_hat = (X - moving_mean) / math.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mu = X.mean(axis=0)
            v = ((X - mu) ** 2).mean(axis=0)
        else:
            mu = X.mean(axis=(0, 2, 3), keepdims=True)
            v = ((X - mu) ** 2).mean(axis=(0, 2, 3), keepdims=True)
        X_hat = (X - mu) / sqrt(v + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mu
        moving_var = (1.0 - momentum) * moving_var + momentum * v
    Y = gamma * X_hat + beta
    return Y, moving_mean, moving_var


def batch_norm_init(num_features, num_dims):
    if num_dims == 2:
        shape = (1, num_features)
    else:
        shape = (1, num_features, 1, 1)
    return ones(shape), zeros(shape), zeros(shape), ones(shape)


def batch_norm_layer(X, state, is_training):
    gamma, beta, moving_mean, moving_var = state
    Y, moving_mean, moving_var = batch_norm(X, gamma, beta, moving_mean, moving_var,
                                            eps=1e-5, momentum=0.1, is_training=is_training)
    return Y, (gamma, beta, moving_mean, moving_var)


def init_lenet(num_classes):
    conv1 = (random_normal((6, 1, 5, 5)) * 0.1, zeros((1, 6, 1, 1)))
    conv2 = (random_normal((16, 6, 5, 5)) * 0.1, zeros((1, 16, 1, 1)))
    fc1 = (random_normal((120, 256)) * 0.05, zeros((120,)))
    fc2 = (random_normal((84, 120)) * 0.05, zeros((84,)))
    fc3 = (random_normal((num_classes, 84)) * 0.05, zeros((num_classes,)))
    bns = (batch_norm_init(6, 4), batch_norm_init(16, 4),
           batch_norm_init(120, 2), batch_norm_init(84, 2))
    return (conv1, conv2, fc1, fc2, fc3), bns


def bn_lenet(X, weights, bns, is_training):
    conv1, conv2, fc1, fc2, fc3 = weights
    bn1, bn2, bn3, bn4 = bns
    Y, bn1 = batch_norm_layer(conv2d(X, conv1[0]) + conv1[1], bn1, is_training)
    Y = avg_pool2d(sigmoid(Y), 2)
    Y, bn2 = batch_norm_layer(conv2d(Y, conv2[0]) + conv2[1], bn2, is_training)
    Y = flatten(avg_pool2d(sigmoid(Y), 2), 1)
    Y, bn3 = batch_norm_layer(linear(Y, fc1[0], fc1[1]), bn3, is_training)
    Y, bn4 = batch_norm_layer(linear(sigmoid(Y), fc2[0], fc2[1]), bn4, is_training)
    return linear(sigmoid(Y), fc3[0], fc3[1]), (bn1, bn2, bn3, bn4)


if __name__ == "__main__":
    weights, bns = init_lenet(10)
    X = random_normal((4, 1, 28, 28))
    logits, bns = bn_lenet(X, weights, bns, True)
    assert logits.shape == (4, 10)
    assert bns[0][2].shape == (1, 6, 1, 1) and bns[3][3].shape == (1, 84)
    print("d2l batchnorm ok")
