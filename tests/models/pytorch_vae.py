"""The MNIST variational autoencoder, translated from pytorch/examples
vae/main.py (VAE.encode, reparameterize, decode, forward, loss_function,
train, test with its reconstruction comparison, and the sampling of the
main loop).

Changed: the module became functions over a weight tuple; the gradient
comes from value_and_grad and Adam is plain SGD; F.binary_cross_entropy
is written with log; torch.randn_like is random_normal(std.shape);
save_image is left out (the comparison and the samples are returned).
The main block evaluates and samples only: train() is kept as in the
original, but the reference runtime's finite-difference grad is far too
slow for these layer sizes (784 -> 400 -> 20, the original's).
train_step (an annotated entry) runs train on one batch, so the
specializer differentiates it (tests/specialize_grad.py).
"""
from __future__ import annotations

from fathom import *


def lin(n_in, n_out):
    return random_normal((n_out, n_in)) * n_in ** -0.5, zeros((n_out,))


def init_vae():
    return lin(784, 400), lin(400, 20), lin(400, 20), lin(20, 400), lin(400, 784)


def encode(params, x):
    fc1, fc21, fc22, fc3, fc4 = params
    h1 = relu(linear(x, fc1[0], fc1[1]))
    return linear(h1, fc21[0], fc21[1]), linear(h1, fc22[0], fc22[1])


def reparameterize(mu, logvar):
    std = exp(0.5 * logvar)
    eps = random_normal(std.shape)
    return mu + eps * std


def decode(params, z):
    fc1, fc21, fc22, fc3, fc4 = params
    h3 = relu(linear(z, fc3[0], fc3[1]))
    return sigmoid(linear(h3, fc4[0], fc4[1]))


def forward(params, x):
    mu, logvar = encode(params, reshape(x, (-1, 784)))
    z = reparameterize(mu, logvar)
    return decode(params, z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    x = reshape(x, (-1, 784))
    BCE = -reduce_sum(x * log(recon_x + 1e-12) + (1 - x) * log(1 - recon_x + 1e-12))
    KLD = -0.5 * reduce_sum(1 + logvar - mu ** 2 - exp(logvar))
    return BCE + KLD


def train(params, train_loader, lr):
    train_loss = 0.0
    n = 0
    for batch_idx, data in enumerate(train_loader):
        def objective(p, data=data):  # bind this trip's batch now (late binding)
            recon_batch, mu, logvar = forward(p, data)
            return loss_function(recon_batch, data, mu, logvar)
        loss, grads = value_and_grad(objective)(params)
        train_loss += float(loss)
        n += data.shape[0]
        params = tuple((w - lr * gw, b - lr * gb) for (w, b), (gw, gb) in zip(params, grads))
    return params, train_loss / n


def test(params, test_loader, batch_size):
    test_loss = 0.0
    comparison = None
    n_seen = 0
    for i, data in enumerate(test_loader):
        recon_batch, mu, logvar = forward(params, data)
        test_loss += float(loss_function(recon_batch, data, mu, logvar))
        n_seen += data.shape[0]
        if i == 0:
            n = min(data.shape[0], 8)
            comparison = concat([data[:n], reshape(recon_batch, (batch_size, 1, 28, 28))[:n]], axis=0)
    return test_loss / n_seen, comparison



def train_step(fc1_w: Tensor[f32, (400, 784)], fc1_b: Tensor[f32, (400,)],
               fc21_w: Tensor[f32, (20, 400)], fc21_b: Tensor[f32, (20,)],
               fc22_w: Tensor[f32, (20, 400)], fc22_b: Tensor[f32, (20,)],
               fc3_w: Tensor[f32, (400, 20)], fc3_b: Tensor[f32, (400,)],
               fc4_w: Tensor[f32, (784, 400)], fc4_b: Tensor[f32, (784,)],
               data: Tensor[f32, (B, 1, 28, 28)]):
    """train() over a loader of one batch of B images, with the original's
    layer sizes (init_vae's)."""
    params = ((fc1_w, fc1_b), (fc21_w, fc21_b), (fc22_w, fc22_b), (fc3_w, fc3_b), (fc4_w, fc4_b))
    return train(params, (data,), 1e-3)


if __name__ == "__main__":
    batch_size = 4
    params = init_vae()
    test_loader = tuple(random_uniform((batch_size, 1, 28, 28)) for _ in range(2))
    test_loss, comparison = test(params, test_loader, batch_size)
    assert comparison.shape == (8, 1, 28, 28)
    sample = decode(params, random_normal((64, 20)))
    assert reshape(sample, (64, 1, 28, 28)).shape == (64, 1, 28, 28)
    print("pytorch vae ok", test_loss)
