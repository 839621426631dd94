# expect-error at line 28: dtype-mismatch
# Planted bug: the real-label target is an i64 tensor, multiplied with f32 logits.
"""A GAN training step: an MLP generator and discriminator, binary
cross-entropy on logits, grads for each network through the other."""
from __future__ import annotations

from fathom import *

NOISE = 16
DATA = 32
HID = 24


def mlp(params, x):
    w1, b1, w2, b2 = params
    return linear(relu(linear(x, w1, b1)), w2, b2)


def bce_with_logits(logits, target):
    # log(1 + exp(-|l|)) + max(l, 0) - l * t, the stable form
    return mean(log(1.0 + exp(-abs(logits))) + maximum(logits, 0.0) - logits * target)


def d_loss(d_params, g_params, real, noise):
    fake = tanh(mlp(g_params, noise))
    real_logits = mlp(d_params, real)
    fake_logits = mlp(d_params, fake)
    return (bce_with_logits(real_logits, cast(ones_like(real_logits), i64))
            + bce_with_logits(fake_logits, zeros_like(fake_logits)))


def g_loss(g_params, d_params, noise):
    fake = tanh(mlp(g_params, noise))
    logits = mlp(d_params, fake)
    return bce_with_logits(logits, ones_like(logits))


def sgd(params, grads, lr):
    return tuple(p - lr * g for p, g in zip(params, grads))


@jit
def train_step(gw1: Tensor[f32, (24, 16)], gb1: Tensor[f32, (24,)],
               gw2: Tensor[f32, (32, 24)], gb2: Tensor[f32, (32,)],
               dw1: Tensor[f32, (24, 32)], db1: Tensor[f32, (24,)],
               dw2: Tensor[f32, (1, 24)], db2: Tensor[f32, (1,)],
               real: Tensor[f32, (B, 32)]):
    g_params = (gw1, gb1, gw2, gb2)
    d_params = (dw1, db1, dw2, db2)
    noise = random_normal((real.shape[0], NOISE))
    dl, d_grads = value_and_grad(d_loss)(d_params, g_params, real, noise)
    d_params = sgd(d_params, d_grads, 0.01)
    gl, g_grads = value_and_grad(g_loss)(g_params, d_params, noise)
    g_params = sgd(g_params, g_grads, 0.01)
    return (dl, gl), g_params, d_params


@jit
def sample(gw1: Tensor[f32, (24, 16)], gb1: Tensor[f32, (24,)],
           gw2: Tensor[f32, (32, 24)], gb2: Tensor[f32, (32,)], n: int):
    return tanh(mlp((gw1, gb1, gw2, gb2), random_normal((n, NOISE))))


if __name__ == "__main__":
    g = (random_normal((HID, NOISE)) * 0.1, zeros((HID,)), random_normal((DATA, HID)) * 0.1, zeros((DATA,)))
    d = (random_normal((HID, DATA)) * 0.1, zeros((HID,)), random_normal((1, HID)) * 0.1, zeros((1,)))
    (dl, gl), g2, d2 = train_step(*g, *d, random_normal((5, DATA)))
    assert dl.shape == () and gl.shape == ()
    assert all(p.shape == q.shape for p, q in zip(g + d, g2 + d2))
    s = sample(*g2, 7)
    assert s.shape == (7, DATA)
    print("gan ok", float(dl), float(gl))
