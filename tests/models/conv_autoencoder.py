"""A convolutional autoencoder: strided conv encoder to a code vector,
linear + reshape decoder back to the image size (nearest upsampling by
repeat via broadcast_to and reshape), and a reconstruction loss grad."""
from __future__ import annotations

from fathom import *


def upsample2(x):
    n, c, h, w = x.shape
    y = broadcast_to(reshape(x, (n, c, h, 1, w, 1)), (n, c, h, 2, w, 2))
    return reshape(y, (n, c, 2 * h, 2 * w))


def encode(x, k1, k2, w_code):
    h = relu(conv2d(x, k1, stride=2, padding=1))      # (N, 4, 4, 4)
    h = relu(conv2d(h, k2, stride=2, padding=1))      # (N, 8, 2, 2)
    return linear(flatten(h, 1), w_code)               # (N, 6)


def decode(z, w_dec, k3, k4):
    h = reshape(relu(linear(z, w_dec)), (z.shape[0], 8, 2, 2))
    h = relu(conv2d(upsample2(h), k3, padding=1))     # (N, 4, 4, 4)
    return sigmoid(conv2d(upsample2(h), k4, padding=1))   # (N, 1, 8, 8)


def recon_loss(params, x):
    k1, k2, w_code, w_dec, k3, k4 = params
    y = decode(encode(x, k1, k2, w_code), w_dec, k3, k4)
    return mean((y - x) ** 2)


@jit
def train_step(k1: Tensor[f32, (4, 1, 3, 3)], k2: Tensor[f32, (8, 4, 3, 3)], w_code: Tensor[f32, (6, 32)],
               w_dec: Tensor[f32, (32, 6)], k3: Tensor[f32, (4, 8, 3, 3)], k4: Tensor[f32, (1, 4, 3, 3)],
               x: Tensor[f32, (N, 1, 8, 8)]):
    params = (k1, k2, w_code, w_dec, k3, k4)
    loss, grads = value_and_grad(recon_loss)(params, x)
    return loss, tuple(p - 0.1 * g for p, g in zip(params, grads))


if __name__ == "__main__":
    r = lambda *s: random_normal(s) * 0.1
    params = (r(4, 1, 3, 3), r(8, 4, 3, 3), r(6, 32), r(32, 6), r(4, 8, 3, 3), r(1, 4, 3, 3))
    loss, new = train_step(*params, random_uniform((2, 1, 8, 8)))
    assert loss.shape == () and all(p.shape == q.shape for p, q in zip(params, new))
    print("conv autoencoder ok", float(loss))
