"""A small CNN in Equinox's style, translated from patrick-kidger/equinox
docs/examples/mnist.ipynb (the CNN whose `layers` list mixes modules and
plain functions: Conv2d, MaxPool2d, relu, ravel, Linear, sigmoid, Linear,
relu, Linear, log_softmax; loss through vmap and cross_entropy with
take_along_axis; compute_accuracy; evaluate over a test loader) and the
README's Linear module (`self.weight @ x + self.bias`, one example at a
time).

Changed: eqx.Module is fathom.Module with a `__call__`; the layers act on
one example, as in Equinox, so Conv2d and MaxPool2d add and drop the
batch axis the DSL's conv2d and max_pool2d take; jax.random keys are
dropped (random_normal draws the weights); jax.vmap(model)(x) is a loop
over the batch and a stack; take_along_axis is a one-hot mask; an
eqx.nn.Dropout (its `inference` flag) sits after the pool, as a
regularised variant; images are 12x12 (so Linear takes 3 * 8 * 8 = 192
features, not 1728) and the optax training loop is left out (evaluate
only, on two batches).
"""
from fathom import *

BATCH_SIZE = 8
IMAGE = 12


class Linear(Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        lim = 1.0 / (in_size ** 0.5)
        self.weight = (random_uniform((out_size, in_size)) * 2.0 - 1.0) * lim
        self.bias = (random_uniform((out_size,)) * 2.0 - 1.0) * lim

    def __call__(self, x):
        return self.weight @ x + self.bias


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        fan_in = in_channels * kernel_size * kernel_size
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * (fan_in ** -0.5)
        self.bias = zeros((out_channels, 1, 1))

    def __call__(self, x):
        return conv2d(x[None], self.weight)[0] + self.bias


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def __call__(self, x):
        return max_pool2d(x[None], self.kernel_size, self.stride)[0]


class Dropout(Module):
    def __init__(self, p=0.5, inference=False):
        super().__init__()
        self.p = p
        self.inference = inference

    def __call__(self, x):
        if self.inference or self.p == 0.0:
            return x
        q = 1.0 - self.p
        keep = random_uniform(x.shape) < q
        return where(keep, x / q, 0.0)


def ravel(x):
    return reshape(x, (-1,))


class CNN(Module):
    def __init__(self, inference=True):
        super().__init__()
        # Standard CNN setup: convolutional layer, followed by flattening,
        # with a small MLP on top.
        self.layers = [
            Conv2d(1, 3, kernel_size=4),
            MaxPool2d(kernel_size=2),
            Dropout(0.1, inference=inference),
            relu,
            ravel,
            Linear(192, 64),
            sigmoid,
            Linear(64, 32),
            relu,
            Linear(32, 10),
            log_softmax,
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def vmap_model(model, x):
    return stack([model(x[i]) for i in range(x.shape[0])])


def cross_entropy(y, pred_y):
    # y are the true targets, and should be integers 0-9.
    # pred_y are the log-softmax'd predictions.
    pred_y = reduce_sum(pred_y * one_hot(y, pred_y.shape[1]), axis=1)
    return -mean(pred_y)


def loss(model, x, y):
    # Our input has the shape (BATCH_SIZE, 1, 12, 12), but our model operates on
    # a single input input image of shape (1, 12, 12).
    pred_y = vmap_model(model, x)
    return cross_entropy(y, pred_y)


def compute_accuracy(model, x, y):
    """This function takes as input the current model
    and computes the average accuracy on a batch.
    """
    pred_y = vmap_model(model, x)
    pred_y = argmax(pred_y, axis=1)
    return mean(cast(y == pred_y, f32))


def evaluate(model, testloader):
    """This function evaluates the model on the test dataset,
    computing both the average loss and the average accuracy.
    """
    avg_loss = 0.0
    avg_acc = 0.0
    for x, y in testloader:
        avg_loss += float(loss(model, x, y))
        avg_acc += float(compute_accuracy(model, x, y))
    return avg_loss / len(testloader), avg_acc / len(testloader)


if __name__ == "__main__":
    model = CNN()
    testloader = [(random_uniform((BATCH_SIZE, 1, IMAGE, IMAGE)),
                   cast(random_uniform((BATCH_SIZE,)) * 10, i64)) for _ in range(2)]
    dummy_x, dummy_y = testloader[0]
    print(float(loss(model, dummy_x, dummy_y)))
    test_loss, test_accuracy = evaluate(model, testloader)
    print(f"test_loss={test_loss}, test_accuracy={test_accuracy}")
