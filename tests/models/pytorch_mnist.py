"""The MNIST convolutional classifier and its test loop, translated from
pytorch/examples mnist/main.py (Net.__init__ and Net.forward, F.nll_loss,
test() with its summed loss and argmax accuracy).

Changed: the module became a function over a weight tuple with a
`training` flag for the two Dropout modules (model.train()/model.eval());
nll_loss is written with one_hot; pred.eq(target.view_as(pred)).sum().item()
is a comparison, cast and reduce_sum; the test loader is a tuple of random
batches.  Layer sizes are the original's (9216 -> 128 -> 10).
"""
from fathom import *


def init_net():
    conv1 = (random_normal((32, 1, 3, 3)) * 0.3, zeros((32,)))
    conv2 = (random_normal((64, 32, 3, 3)) * 0.06, zeros((64,)))
    fc1 = (random_normal((128, 9216)) * 0.01, zeros((128,)))
    fc2 = (random_normal((10, 128)) * 0.1, zeros((10,)))
    return conv1, conv2, fc1, fc2


def net(params, x, training):
    conv1, conv2, fc1, fc2 = params
    x = conv2d(x, conv1[0]) + reshape(conv1[1], (1, -1, 1, 1))
    x = relu(x)
    x = conv2d(x, conv2[0]) + reshape(conv2[1], (1, -1, 1, 1))
    x = relu(x)
    x = max_pool2d(x, 2, 2)
    if training:
        x = dropout(x, 0.25)
    x = flatten(x, 1)
    x = relu(linear(x, fc1[0], fc1[1]))
    if training:
        x = dropout(x, 0.5)
    x = linear(x, fc2[0], fc2[1])
    return log_softmax(x, axis=1)


def nll_loss(output, target, reduction="mean"):
    picked = reduce_sum(output * one_hot(target, output.shape[1]), axis=1)
    if reduction == "sum":
        return -reduce_sum(picked)
    return -mean(picked)


def test(params, test_loader):
    test_loss = 0.0
    correct = 0
    n = 0
    for data, target in test_loader:
        output = net(params, data, False)
        test_loss += float(nll_loss(output, target, reduction="sum"))
        pred = argmax(output, axis=1, keepdims=True)
        correct += int(reduce_sum(cast(pred == reshape(target, pred.shape), i64)))
        n += data.shape[0]
    test_loss /= n
    return test_loss, correct, n


if __name__ == "__main__":
    params = init_net()
    batches = tuple((random_uniform((2, 1, 28, 28)), cast(random_uniform((2,)) * 10, i64))
                    for _ in range(2))
    out = net(params, batches[0][0], False)
    assert out.shape == (2, 10)
    test_loss, correct, n = test(params, batches)
    assert n == 4 and 0 <= correct <= n
    print("pytorch mnist ok", test_loss, correct)
