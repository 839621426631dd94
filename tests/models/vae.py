"""A variational autoencoder on flattened 8x8 images: encoder to mean and
log-variance (one fused projection split in two), reparameterisation with
random_normal noise, a sigmoid decoder, and the ELBO loss with its grads."""
from __future__ import annotations

from fathom import *

PIX = 64
HID = 16
LAT = 4


def encode(x, w_enc, b_enc, w_stats, b_stats):
    h = relu(linear(x, w_enc, b_enc))
    stats = linear(h, w_stats, b_stats)              # (B, 2*LAT)
    mu, logvar = split(stats, 2, axis=1)
    return mu, logvar


def decode(z, w_dec1, b_dec1, w_dec2, b_dec2):
    h = relu(linear(z, w_dec1, b_dec1))
    return sigmoid(linear(h, w_dec2, b_dec2))


def elbo_loss(params, x, eps):
    w_enc, b_enc, w_stats, b_stats, w_dec1, b_dec1, w_dec2, b_dec2 = params
    mu, logvar = encode(x, w_enc, b_enc, w_stats, b_stats)
    z = mu + exp(0.5 * logvar) * eps
    recon = decode(z, w_dec1, b_dec1, w_dec2, b_dec2)
    bce = -reduce_sum(x * log(recon + 1e-7) + (1.0 - x) * log(1.0 - recon + 1e-7), axis=1)
    kl = -0.5 * reduce_sum(1.0 + logvar - mu * mu - exp(logvar), axis=1)
    return mean(bce + kl)


@jit
def train_step(w_enc: Tensor[f32, (16, 64)], b_enc: Tensor[f32, (16,)],
               w_stats: Tensor[f32, (8, 16)], b_stats: Tensor[f32, (8,)],
               w_dec1: Tensor[f32, (16, 4)], b_dec1: Tensor[f32, (16,)],
               w_dec2: Tensor[f32, (64, 16)], b_dec2: Tensor[f32, (64,)],
               images: Tensor[f32, (B, 8, 8)]):
    x = reshape(images, (images.shape[0], PIX))
    eps = random_normal((x.shape[0], LAT))
    params = (w_enc, b_enc, w_stats, b_stats, w_dec1, b_dec1, w_dec2, b_dec2)
    loss, grads = value_and_grad(elbo_loss)(params, x, eps)
    return loss, tuple(p - 1e-3 * g for p, g in zip(params, grads))


@jit
def reconstruct(w_enc: Tensor[f32, (16, 64)], b_enc: Tensor[f32, (16,)],
                w_stats: Tensor[f32, (8, 16)], b_stats: Tensor[f32, (8,)],
                w_dec1: Tensor[f32, (16, 4)], b_dec1: Tensor[f32, (16,)],
                w_dec2: Tensor[f32, (64, 16)], b_dec2: Tensor[f32, (64,)],
                images: Tensor[f32, (B, 8, 8)]):
    mu, _ = encode(flatten(images, 1), w_enc, b_enc, w_stats, b_stats)
    return reshape(decode(mu, w_dec1, b_dec1, w_dec2, b_dec2), images.shape)


if __name__ == "__main__":
    params = (random_normal((HID, PIX)) * 0.01, zeros((HID,)),
              random_normal((2 * LAT, HID)) * 0.1, zeros((2 * LAT,)),
              random_normal((HID, LAT)) * 0.1, zeros((HID,)),
              random_normal((PIX, HID)) * 0.1, zeros((PIX,)))
    images = random_uniform((3, 8, 8))
    loss, new = train_step(*params, images)
    assert loss.shape == () and loss.dtype == f32
    assert all(p.shape == q.shape for p, q in zip(params, new))
    out = reconstruct(*new, images)
    assert out.shape == (3, 8, 8) and out.dtype == f32
    print("vae ok", float(loss))
