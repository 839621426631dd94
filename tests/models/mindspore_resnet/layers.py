"""The MindSpore cells and init helpers resnet.py builds on."""
from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, pad_mode='same'):
        super().__init__()
        self.stride = stride
        self.padding = (kernel_size - 1) // 2 if pad_mode == 'same' else padding
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.1

    def construct(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-4, momentum=0.9, gamma_init=1.0):
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.gamma = full((num_features,), gamma_init)
        self.beta = zeros((num_features,))
        self.moving_mean = zeros((num_features,))
        self.moving_variance = ones((num_features,))

    def construct(self, x):
        shape = (1, -1, 1, 1)
        x_hat = (x - reshape(self.moving_mean, shape)) / sqrt(reshape(self.moving_variance, shape) + self.eps)
        return x_hat * reshape(self.gamma, shape) + reshape(self.beta, shape)


class Dense(Module):
    def __init__(self, in_channels, out_channels, has_bias=True):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels)) * 0.1
        self.bias = zeros((out_channels,)) if has_bias else None

    def construct(self, x):
        return linear(x, self.weight, self.bias)


class ReLU(Module):
    def construct(self, x):
        return relu(x)


class Sigmoid(Module):
    def construct(self, x):
        return sigmoid(x)


class MaxPool2d(Module):
    def __init__(self, kernel_size=1, stride=1, pad_mode='valid'):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = (kernel_size - 1) // 2 if pad_mode == 'same' else 0

    def construct(self, x):
        return max_pool2d(x, self.kernel_size, self.stride, self.padding)


class Pad(Module):
    def __init__(self, paddings):
        super().__init__()
        self.paddings = paddings

    def construct(self, x):
        return pad(x, self.paddings)


class Flatten(Module):
    def construct(self, x):
        return flatten(x, 1)


class SequentialCell(Module):
    def __init__(self, cells):
        super().__init__()
        self.cells = cells

    def construct(self, x):
        for cell in self.cells:
            x = cell(x)
        return x


def _conv3x3(in_channel, out_channel, stride=1, use_se=False, res_base=False):
    if res_base:
        return Conv2d(in_channel, out_channel, kernel_size=3, stride=stride, padding=1, pad_mode='pad')
    return Conv2d(in_channel, out_channel, kernel_size=3, stride=stride, padding=0, pad_mode='same')


def _conv1x1(in_channel, out_channel, stride=1, use_se=False, res_base=False):
    if res_base:
        return Conv2d(in_channel, out_channel, kernel_size=1, stride=stride, padding=0, pad_mode='pad')
    return Conv2d(in_channel, out_channel, kernel_size=1, stride=stride, padding=0, pad_mode='same')


def _conv7x7(in_channel, out_channel, stride=1, use_se=False, res_base=False):
    if res_base:
        return Conv2d(in_channel, out_channel, kernel_size=7, stride=stride, padding=3, pad_mode='pad')
    return Conv2d(in_channel, out_channel, kernel_size=7, stride=stride, padding=0, pad_mode='same')


def _bn(channel, res_base=False):
    if res_base:
        return BatchNorm2d(channel, eps=1e-5, momentum=0.1, gamma_init=1.0)
    return BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=1.0)


def _bn_last(channel):
    return BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=0.0)


def _fc(in_channel, out_channel, use_se=False):
    return Dense(in_channel, out_channel, has_bias=True)
