"""An MLP classifier trained with grad, translated from jax-ml/jax
examples/mnist_classifier_fromscratch.py (init_random_params, predict with
its logsumexp normalisation, loss, accuracy, the update step and the
training loop of its main block).

Changed: numpy's RandomState is random_normal; jnp.dot is matmul;
jax.scipy.special.logsumexp is fathom's logsumexp; update is
a module-level function taking step_size instead of a jitted closure; the
MNIST stream is random batches; layer sizes are tiny because the
reference runtime's grad uses finite differences.
"""
from __future__ import annotations

from fathom import *


def init_random_params(scale, layer_sizes):
    return [(scale * random_normal((m, n)), scale * random_normal((n,)))
            for m, n, in zip(layer_sizes[:-1], layer_sizes[1:])]


def predict(params, inputs):
    activations = inputs
    for w, b in params[:-1]:
        outputs = matmul(activations, w) + b
        activations = tanh(outputs)
    final_w, final_b = params[-1]
    logits = matmul(activations, final_w) + final_b
    return logits - logsumexp(logits, axis=1, keepdims=True)


def loss(params, batch):
    inputs, targets = batch
    preds = predict(params, inputs)
    return -mean(reduce_sum(preds * targets, axis=1))


def accuracy(params, batch):
    inputs, targets = batch
    target_class = argmax(targets, axis=1)
    predicted_class = argmax(predict(params, inputs), axis=1)
    return mean(cast(predicted_class == target_class, f32))


def update(params, batch, step_size):
    grads = grad(loss)(params, batch)
    return [(w - step_size * dw, b - step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]



def train_step(w1: Tensor[f32, (16, 8)], b1: Tensor[f32, (8,)], w2: Tensor[f32, (8, 8)],
               b2: Tensor[f32, (8,)], w3: Tensor[f32, (8, 4)], b3: Tensor[f32, (4,)],
               images: Tensor[f32, (B, 16)], labels: Tensor[f32, (B, 4)]):
    """One update of the main block's network (layer sizes 16, 8, 8, 4) on
    a batch of B images: the parameters are a list of (w, b) pairs, as
    init_random_params makes them."""
    params = [(w1, b1), (w2, b2), (w3, b3)]
    return update(params, (images, labels), 0.001)


if __name__ == "__main__":
    layer_sizes = [16, 8, 8, 4]
    param_scale = 0.1
    step_size = 0.001
    num_batches = 2
    batch_size = 8
    images = random_uniform((num_batches * batch_size, layer_sizes[0]))
    labels = one_hot(cast(random_uniform((num_batches * batch_size,)) * layer_sizes[-1], i64), layer_sizes[-1])
    params = init_random_params(param_scale, layer_sizes)
    for i in range(num_batches):
        batch = (images[i * batch_size:(i + 1) * batch_size], labels[i * batch_size:(i + 1) * batch_size])
        params = update(params, batch, step_size)
    train_acc = accuracy(params, (images, labels))
    assert train_acc.shape == ()
    print(f"Training set accuracy {float(train_acc)}")
