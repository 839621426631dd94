"""Differentially private SGD on an MLP, translated from jax-ml/jax
examples/differentially_private_sgd.py: the stax MLP (Dense, Tanh, Dense,
LogSoftmax), loss and accuracy, clipped_grad (per-example gradient
clipping to an L2 norm by the global norm of all leaves), private_grad
(per-example clipped gradients, summed, with Gaussian noise scaled by
noise_multiplier * l2_norm_clip, averaged over the batch), the
non-private update path taken when --dpsgd is off, and shape_as_image.

Changed: stax.serial is a function over a list of (W, b) pairs; vmap over
the batch of per-example gradients is a Python loop over examples that
calls grad on batches of one; tree_flatten/tree_unflatten are list
comprehensions over the (W, b) pairs; optimizers.sgd is written out;
the privacy accounting (compute_epsilon, via tensorflow_privacy) is left
out; images are 6x6 and the hidden layer has 8 units because the
reference runtime's grad uses finite differences.
"""
from __future__ import annotations

import math

from fathom import *

DPSGD = True
LEARNING_RATE = 0.15
NOISE_MULTIPLIER = 1.1
L2_NORM_CLIP = 1.0
BATCH_SIZE = 4
EPOCHS = 1
NUM_BATCHES = 2
IMAGE = 6
HIDDEN = 8
CLASSES = 3


def init_random_params(layer_sizes):
    return [(random_normal((m, n)) * (1.0 / math.sqrt(m)), zeros((n,)))
            for m, n in zip(layer_sizes[:-1], layer_sizes[1:])]


def predict(params, inputs):
    activations = inputs
    for w, b in params[:-1]:
        activations = tanh(activations @ w + b)
    final_w, final_b = params[-1]
    return log_softmax(activations @ final_w + final_b, axis=-1)


def loss(params, batch):
    inputs, targets = batch
    logits = predict(params, inputs)
    logits = logits - logsumexp(logits, axis=1, keepdims=True)  # normalize
    return -mean(reduce_sum(logits * targets, axis=1))  # cross entropy loss


def accuracy(params, batch):
    inputs, targets = batch
    target_class = argmax(targets, axis=1)
    predicted_class = argmax(predict(params, inputs), axis=1)
    return mean(cast(predicted_class == target_class, f32))


def shape_as_image(images, labels, dummy_dim=False):
    target_shape = (-1, 1, IMAGE, IMAGE, 1) if dummy_dim else (-1, IMAGE, IMAGE, 1)
    return reshape(images, target_shape), labels


def flatten_images(images):
    return reshape(images, (images.shape[0], -1))


def clipped_grad(params, l2_norm_clip, single_example_batch):
    """Evaluate gradient for a single-example batch and clip its grad norm."""
    grads = grad(loss)(params, single_example_batch)
    nonempty_grads = [g for pair in grads for g in pair]
    total_grad_norm = sqrt(sum([reduce_sum(g * g) for g in nonempty_grads]))
    divisor = maximum(total_grad_norm / l2_norm_clip, 1.0)
    return [(dw / divisor, db / divisor) for dw, db in grads]


def private_grad(params, batch, l2_norm_clip, noise_multiplier, batch_size):
    """Return differentially private gradients for params, evaluated on batch."""
    images, labels = batch
    summed = None
    for i in range(batch_size):
        example = (flatten_images(images[i:i + 1]), labels[i:i + 1])
        clipped = clipped_grad(params, l2_norm_clip, example)
        if summed is None:
            summed = clipped
        else:
            summed = [(sw + cw, sb + cb) for (sw, sb), (cw, cb) in zip(summed, clipped)]
    noised = [(w + l2_norm_clip * noise_multiplier * random_normal(w.shape),
               b + l2_norm_clip * noise_multiplier * random_normal(b.shape))
              for w, b in summed]
    return [(w / batch_size, b / batch_size) for w, b in noised]


def update(params, batch):
    if DPSGD:
        grads = private_grad(params, batch, L2_NORM_CLIP, NOISE_MULTIPLIER, BATCH_SIZE)
    else:
        images, labels = batch
        grads = grad(loss)(params, (flatten_images(images), labels))
    return [(w - LEARNING_RATE * dw, b - LEARNING_RATE * db)
            for (w, b), (dw, db) in zip(params, grads)]


def train_step(w1: Tensor[f32, (36, 8)], b1: Tensor[f32, (8,)],
               w2: Tensor[f32, (8, 3)], b2: Tensor[f32, (3,)],
               images: Tensor[f32, (4, 36)], labels: Tensor[f32, (4, 3)]):
    """One update of the main loop on a batch of BATCH_SIZE flat images and
    their one-hot labels, with the (W, b) pairs init_random_params makes."""
    return update([(w1, b1), (w2, b2)], shape_as_image(images, labels))


if __name__ == "__main__":
    train_images = random_uniform((NUM_BATCHES * BATCH_SIZE, IMAGE * IMAGE))
    train_labels = one_hot(cast(random_uniform((NUM_BATCHES * BATCH_SIZE,)) * CLASSES, i64), CLASSES)
    params = init_random_params([IMAGE * IMAGE, HIDDEN, CLASSES])
    for epoch in range(EPOCHS):
        for i in range(NUM_BATCHES):
            lo, hi = i * BATCH_SIZE, (i + 1) * BATCH_SIZE
            batch = shape_as_image(train_images[lo:hi], train_labels[lo:hi])
            params = update(params, batch)
        acc = accuracy(params, (train_images, train_labels))
        print("epoch", epoch, "train accuracy", float(acc))
