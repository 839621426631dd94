"""The torch.nn layers the d2l networks are built from."""
from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.stride = stride
        self.padding = padding
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.1
        self.bias = zeros((out_channels,))

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = ones((1, num_features, 1, 1))
        self.beta = zeros((1, num_features, 1, 1))
        self.moving_mean = zeros((1, num_features, 1, 1))
        self.moving_var = ones((1, num_features, 1, 1))

    def forward(self, X):
        X_hat = (X - self.moving_mean) / sqrt(self.moving_var + self.eps)
        return self.gamma * X_hat + self.beta


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class Dropout(Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def forward(self, x):
        return max_pool2d(x, self.kernel_size, self.stride, self.padding)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride

    def forward(self, x):
        return avg_pool2d(x, self.kernel_size, self.stride)


class AdaptiveAvgPool2d(Module):
    """nn.AdaptiveAvgPool2d((1, 1))"""

    def forward(self, x):
        return mean(x, axis=(2, 3), keepdims=True)


class Flatten(Module):
    def forward(self, x):
        return flatten(x, 1)


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        self.modules = modules

    def forward(self, x):
        for module in self.modules:
            x = module(x)
        return x
