"""The MNIST convolutional classifier and its test loop, translated from
pytorch/examples mnist/main.py in its original class form (Net with
conv1, conv2, dropout1, dropout2, fc1, fc2 and its forward, F.nll_loss,
test() with its summed loss and argmax accuracy).

Changed: nn.Module is fathom.Module; nn.Conv2d / nn.Dropout / nn.Linear
are small classes; model.train() / model.eval() set a flag on a built
module, which the DSL does not allow (an instance is immutable once
__init__ returns), so the mode is Net's `training` argument, handed to
its Dropout modules; nll_loss is written with one_hot;
pred.eq(target.view_as(pred)).sum().item() is a comparison, cast and
reduce_sum; the test loader is a tuple of random batches.  Layer sizes
are the original's (9216 -> 128 -> 10).
"""
from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1):
        super(Conv2d, self).__init__()
        fan_in = in_channels * kernel_size * kernel_size
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * fan_in ** -0.5
        self.bias = zeros((out_channels,))
        self.stride = stride

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, bias=self.bias)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super(Linear, self).__init__()
        self.weight = random_normal((out_features, in_features)) * in_features ** -0.5
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, p=0.5, training=True):
        super(Dropout, self).__init__()
        self.p = p
        self.training = training

    def forward(self, x):
        if self.training:
            return dropout(x, self.p)
        return x


class Net(Module):
    def __init__(self, training=True):
        super(Net, self).__init__()
        self.conv1 = Conv2d(1, 32, 3, 1)
        self.conv2 = Conv2d(32, 64, 3, 1)
        self.dropout1 = Dropout(0.25, training)
        self.dropout2 = Dropout(0.5, training)
        self.fc1 = Linear(9216, 128)
        self.fc2 = Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = relu(x)
        x = self.conv2(x)
        x = relu(x)
        x = max_pool2d(x, 2, 2)
        x = self.dropout1(x)
        x = flatten(x, 1)
        x = self.fc1(x)
        x = relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = log_softmax(x, axis=1)
        return output


def nll_loss(output, target, reduction="mean"):
    picked = reduce_sum(output * one_hot(target, output.shape[1]), axis=1)
    if reduction == "sum":
        return -reduce_sum(picked)
    return -mean(picked)


def test(model, test_loader):
    test_loss = 0.0
    correct = 0
    n = 0
    for data, target in test_loader:
        output = model(data)
        test_loss += float(nll_loss(output, target, reduction="sum"))  # sum up batch loss
        pred = argmax(output, axis=1, keepdims=True)  # get the index of the max log-probability
        correct += int(reduce_sum(cast(pred == target.view(*pred.shape), i64)))
        n += data.shape[0]
    test_loss /= n
    return test_loss, correct, n


if __name__ == "__main__":
    model = Net(training=False)
    test_loader = tuple((random_uniform((2, 1, 28, 28)), cast(random_uniform((2,)) * 10, i64))
                        for _ in range(2))
    out = model(test_loader[0][0])
    assert out.shape == (2, 10)
    test_loss, correct, n = test(model, test_loader)
    assert n == 4 and 0 <= correct <= n
    print("pytorch mnist (classes) ok", test_loss, correct)
