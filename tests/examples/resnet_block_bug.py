# expect-error at line 30: shape-mismatch
# Planted bug: the projection shortcut forgets stride=2: 32x32 maps added to 16x16 maps.
"""Residual blocks with batch normalisation (statistics over N, H, W with
keepdims), a strided downsampling block with a 1x1 projection shortcut, a
global average pool and a linear head."""
from __future__ import annotations

from fathom import *

EPS = 1e-5


def batch_norm(x, gamma, beta):
    mu = mean(x, axis=(0, 2, 3), keepdims=True)
    v = var(x, axis=(0, 2, 3), keepdims=True)
    xhat = (x - mu) / sqrt(v + EPS)
    return xhat * reshape(gamma, (1, -1, 1, 1)) + reshape(beta, (1, -1, 1, 1))


def basic_block(x, w1, g1, b1, w2, g2, b2):
    h = relu(batch_norm(conv2d(x, w1, padding=1), g1, b1))
    h = batch_norm(conv2d(h, w2, padding=1), g2, b2)
    return relu(h + x)


def down_block(x, w1, g1, b1, w2, g2, b2, w_proj):
    h = relu(batch_norm(conv2d(x, w1, stride=2, padding=1), g1, b1))
    h = batch_norm(conv2d(h, w2, padding=1), g2, b2)
    shortcut = conv2d(x, w_proj)
    return relu(h + shortcut)


@jit
def resnet(x: Tensor[f32, (N, 16, 32, 32)],
           a1: Tensor[f32, (16, 16, 3, 3)], a2: Tensor[f32, (16, 16, 3, 3)], ga: Tensor[f32, (16,)], ba: Tensor[f32, (16,)],
           d1: Tensor[f32, (32, 16, 3, 3)], d2: Tensor[f32, (32, 32, 3, 3)], gd: Tensor[f32, (32,)], bd: Tensor[f32, (32,)],
           proj: Tensor[f32, (32, 16, 1, 1)], w_fc: Tensor[f32, (10, 32)], b_fc: Tensor[f32, (10,)]):
    h = basic_block(x, a1, ga, ba, a2, ga, ba)               # (N, 16, 32, 32)
    h = down_block(h, d1, gd, bd, d2, gd, bd, proj)          # (N, 32, 16, 16)
    pooled = mean(h, axis=(2, 3))                            # (N, 32)
    return linear(pooled, w_fc, b_fc)


if __name__ == "__main__":
    x = random_normal((2, 16, 32, 32))
    out = resnet(x, random_normal((16, 16, 3, 3)) * 0.1, random_normal((16, 16, 3, 3)) * 0.1,
                 ones((16,)), zeros((16,)),
                 random_normal((32, 16, 3, 3)) * 0.1, random_normal((32, 32, 3, 3)) * 0.1,
                 ones((32,)), zeros((32,)), random_normal((32, 16, 1, 1)) * 0.1,
                 random_normal((10, 32)) * 0.1, zeros((10,)))
    assert out.shape == (2, 10) and out.dtype == f32
    print("resnet ok")
