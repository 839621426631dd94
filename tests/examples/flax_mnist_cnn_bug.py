# expect-error at line 33: shape-mismatch
# Planted bug: Conv moves the channels with permute(x, 0, 2, 3, 1) (the NCHW->NHWC order) instead of (0, 3, 1, 2), so conv2d sees the width as the channels.
"""The CNN of the Flax MNIST example (google/flax examples/mnist/train.py)
in its original `@nn.compact` form: the layers are dataclass modules
created inline inside `__call__`, each sizing its parameters from the
input it receives at the first call (flax's lazy shape inference), in
NHWC layout; apply_model's loss (softmax cross-entropy on one-hot labels)
and accuracy on a random batch.

Changed: flax.linen's Module is a plain dataclass with `__call__`, and
nn.Conv / nn.Dense are small dataclasses here whose kernels are drawn
with random_normal when called (flax draws them once, at `init`);
nn.Conv's 'SAME' padding is conv2d's padding k // 2 on the NCHW
transpose of the input; nn.avg_pool is avg_pool2d on the NCHW
transpose; optax.softmax_cross_entropy is written out with log_softmax;
the gradient step (jax.value_and_grad over the params dict) is left out.
"""
from dataclasses import dataclass

from fathom import *


@dataclass
class Conv:
    features: int
    kernel_size: tuple = (3, 3)

    def __call__(self, x):
        # x: (N, H, W, C) -> (N, H, W, features), 'SAME' padding
        kh, kw = self.kernel_size
        kernel = random_normal((self.features, x.shape[-1], kh, kw)) * 0.05
        bias = zeros((self.features,))
        y = conv2d(permute(x, 0, 2, 3, 1), kernel, padding=kh // 2, bias=bias)
        return permute(y, 0, 2, 3, 1)


@dataclass
class Dense:
    features: int

    def __call__(self, x):
        kernel = random_normal((x.shape[-1], self.features)) * 0.05
        bias = zeros((self.features,))
        return x @ kernel + bias


def avg_pool(x, window_shape, strides):
    y = avg_pool2d(permute(x, 0, 3, 1, 2), window_shape[0], strides[0])
    return permute(y, 0, 2, 3, 1)


@dataclass
class CNN:
    """A simple CNN model."""

    def __call__(self, x):
        x = Conv(features=32, kernel_size=(3, 3))(x)
        x = relu(x)
        x = avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = Conv(features=64, kernel_size=(3, 3))(x)
        x = relu(x)
        x = avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))  # flatten
        x = Dense(features=256)(x)
        x = relu(x)
        x = Dense(features=10)(x)
        return x


def softmax_cross_entropy(logits, labels):
    return -reduce_sum(labels * log_softmax(logits, axis=-1), axis=-1)


def apply_model(model, images, labels):
    """Computes the loss and accuracy for a single batch."""
    logits = model(images)
    one_hot_labels = one_hot(labels, 10)
    loss = mean(softmax_cross_entropy(logits=logits, labels=one_hot_labels))
    accuracy = mean(cast(argmax(logits, -1) == labels, f32))
    return loss, accuracy


if __name__ == "__main__":
    cnn = CNN()
    images = random_uniform((4, 28, 28, 1))
    labels = cast(random_uniform((4,)) * 10, i64)
    loss, accuracy = apply_model(cnn, images, labels)
    assert loss.shape == () and accuracy.shape == ()
    print("flax mnist cnn ok", float(loss), float(accuracy))
