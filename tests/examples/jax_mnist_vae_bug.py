# expect-error at line 87: shape-mismatch
# Planted bug: the decoder is built for half the image size, so its logits do not
# match the images in bernoulli_logpdf; only the caller's shapes reveal it.
"""A variational autoencoder on binarized MNIST, translated from
jax-ml/jax examples/mnist_vae.py: the stax encoder (Dense 512, Relu,
Dense 512, Relu, FanOut into a mean head and a Softplus variance head)
and decoder (Dense 512, Relu, Dense 512, Relu, Dense 784), gaussian_kl,
gaussian_sample, bernoulli_logpdf, elbo, image_sample, binarize_batch and
the jitted run_epoch's body (value_and_grad of the negated, batch-averaged
ELBO and a plain SGD step on the parameter tuples).

Changed: stax.serial/FanOut/parallel are written out as functions over
lists of (W, b) pairs, the layer sizes are small (hidden 32, latent 4,
images 8x8 = 64 pixels) because the reference runtime's grad uses finite
differences; jax.random keys are gone (random_normal draws); jnp.logaddexp(0,
v) is softplus(v); momentum is plain SGD; the MNIST stream is random
uniform images; vmap over the batch is the batched matmul itself.
"""
from __future__ import annotations

import math

from fathom import *

IMAGE_SIZE = 8 * 8
HIDDEN = 32
LATENT = 4
BATCH = 8
NROW, NCOL = 2, 2
STEP_SIZE = 0.001
NUM_EPOCHS = 1
BATCHES_PER_EPOCH = 2


def dense_init(in_dim, out_dim):
    w = random_normal((in_dim, out_dim)) * (1.0 / math.sqrt(in_dim))
    b = zeros((out_dim,))
    return (w, b)


def dense_apply(param, x):
    w, b = param
    return x @ w + b


def encoder_init(in_dim):
    trunk = [dense_init(in_dim, HIDDEN), dense_init(HIDDEN, HIDDEN)]
    mean_head = dense_init(HIDDEN, LATENT)
    var_head = dense_init(HIDDEN, LATENT)
    return (trunk, mean_head, var_head)


def encode(params, x):
    trunk, mean_head, var_head = params
    h = x
    for layer in trunk:
        h = relu(dense_apply(layer, h))
    mu = dense_apply(mean_head, h)
    sigmasq = softplus(dense_apply(var_head, h))
    return mu, sigmasq


def decoder_init(out_dim):
    return [dense_init(LATENT, HIDDEN), dense_init(HIDDEN, HIDDEN), dense_init(HIDDEN, out_dim)]


def decode(params, z):
    h = z
    for layer in params[:-1]:
        h = relu(dense_apply(layer, h))
    return dense_apply(params[-1], h)


def gaussian_kl(mu, sigmasq):
    """KL divergence from a diagonal Gaussian to the standard Gaussian."""
    return -0.5 * reduce_sum(1.0 + log(sigmasq) - mu ** 2.0 - sigmasq)


def gaussian_sample(mu, sigmasq):
    """Sample a diagonal Gaussian."""
    return mu + sqrt(sigmasq) * random_normal(mu.shape)


def bernoulli_logpdf(logits, x):
    """Bernoulli log pdf of data x given logits."""
    # jnp.where(x, -1., 1.) on 0/1 pixels, kept in the logits' dtype
    return -reduce_sum(softplus((1.0 - 2.0 * x) * logits))


def elbo(enc_params, dec_params, images):
    """Monte Carlo estimate of the negative evidence lower bound."""
    mu_z, sigmasq_z = encode(enc_params, images)
    logits_x = decode(dec_params, gaussian_sample(mu_z, sigmasq_z))
    return bernoulli_logpdf(logits_x, images) - gaussian_kl(mu_z, sigmasq_z)


def image_sample(dec_params, nrow, ncol):
    """Sample images from the generative model."""
    code = random_normal((nrow * ncol, LATENT))
    logits = decode(dec_params, code)
    sampled_images = random_uniform(logits.shape) < sigmoid(logits)
    images = cast(sampled_images, f32)
    return reshape(images, (nrow * ncol, 8, 8))


def binarize_batch(images):
    return random_uniform(images.shape) < images


def loss(params, batch):
    enc_params, dec_params = params
    return -elbo(enc_params, dec_params, cast(batch, f32)) / batch.shape[0]


def sgd_step(params, grads, step_size):
    enc, dec = params
    genc, gdec = grads
    trunk, mean_head, var_head = enc
    gtrunk, gmean, gvar = genc
    new_trunk = [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(trunk, gtrunk)]
    new_mean = (mean_head[0] - step_size * gmean[0], mean_head[1] - step_size * gmean[1])
    new_var = (var_head[0] - step_size * gvar[0], var_head[1] - step_size * gvar[1])
    new_dec = [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(dec, gdec)]
    return ((new_trunk, new_mean, new_var), new_dec)


def update(params, batch):
    """The body of the jitted run_epoch: the loss and one SGD step."""
    value, grads = value_and_grad(loss)(params, batch)
    return sgd_step(params, grads, STEP_SIZE), value


def train_step(enc_w1: Tensor[f32, (64, 32)], enc_b1: Tensor[f32, (32,)],
               enc_w2: Tensor[f32, (32, 32)], enc_b2: Tensor[f32, (32,)],
               mean_w: Tensor[f32, (32, 4)], mean_b: Tensor[f32, (4,)],
               var_w: Tensor[f32, (32, 4)], var_b: Tensor[f32, (4,)],
               dec_w1: Tensor[f32, (4, 32)], dec_b1: Tensor[f32, (32,)],
               dec_w2: Tensor[f32, (32, 32)], dec_b2: Tensor[f32, (32,)],
               dec_w3: Tensor[f32, (32, 64)], dec_b3: Tensor[f32, (64,)],
               images: Tensor[f32, (B, 64)]):
    """One update on a batch of B images, with the parameter tuples that
    encoder_init and decoder_init make."""
    enc_params = ([(enc_w1, enc_b1), (enc_w2, enc_b2)], (mean_w, mean_b), (var_w, var_b))
    dec_params = [(dec_w1, dec_b1), (dec_w2, dec_b2), (dec_w3, dec_b3)]
    return update((enc_params, dec_params), binarize_batch(images))


def run_epoch(params, train_images):
    total = 0.0
    for i in range(BATCHES_PER_EPOCH):
        batch = binarize_batch(train_images[i * BATCH:(i + 1) * BATCH])
        params, value = update(params, batch)
        total = total + float(value)
    return params, total / BATCHES_PER_EPOCH


if __name__ == "__main__":
    train_images = random_uniform((BATCH * BATCHES_PER_EPOCH, IMAGE_SIZE))
    test_images = random_uniform((BATCH, IMAGE_SIZE))
    params = (encoder_init(IMAGE_SIZE), decoder_init(IMAGE_SIZE // 2))
    for epoch in range(NUM_EPOCHS):
        params, train_loss = run_epoch(params, train_images)
        enc_params, dec_params = params
        test_elbo = elbo(enc_params, dec_params, cast(binarize_batch(test_images), f32)) / BATCH
        sampled = image_sample(dec_params, NROW, NCOL)
        assert sampled.shape == (NROW * NCOL, 8, 8)
        print("epoch", epoch, "train loss", train_loss, "test elbo", float(test_elbo))
