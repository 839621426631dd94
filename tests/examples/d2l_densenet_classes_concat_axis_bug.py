# expect-error at line 79: shape-mismatch
# Planted bug (a copy of tests/models/d2l_densenet_classes.py with one change): Y = concat((X, Y), axis=-1)
"""DenseNet, translated from d2l-ai/d2l-en chapter_convolutional-modern/densenet.md.
Class structure of the JAX tab (ConvBlock, DenseBlock, TransitionBlock,
DenseNet with b1 / create_net and a `training` flag that picks batch or
running statistics in BatchNorm); channel bookkeeping of the PyTorch tab
(num_channels += num_convs * growth_rate), since layers here are not lazy.
Changed: NCHW as torch; nn.BatchNorm / nn.Conv / nn.Dense are small classes;
nn.Sequential takes modules and plain functions (nn.relu, lambdas), as Flax's.
"""
import math

from fathom import *


class Conv(Module):
    def __init__(self, in_features, features, kernel_size, strides=1, padding=0):
        super().__init__()
        self.kernel = random_normal((features, in_features, kernel_size, kernel_size)) * math.sqrt(2.0 / (in_features * kernel_size * kernel_size))
        self.bias = zeros((features,))
        self.strides = strides
        self.padding = padding

    def forward(self, x):
        return conv2d(x, self.kernel, stride=self.strides, padding=self.padding, bias=self.bias)


class BatchNorm(Module):
    def __init__(self, num_features, use_running_average, epsilon=1e-5):
        super().__init__()
        self.use_running_average = use_running_average
        self.scale = ones((num_features,))
        self.bias = zeros((num_features,))
        self.mean = zeros((num_features,))
        self.var = ones((num_features,))
        self.epsilon = epsilon

    def forward(self, x):
        if self.use_running_average:
            m, v = self.mean, self.var
        else:
            m = mean(x, axis=(0, 2, 3))
            v = var(x, axis=(0, 2, 3))
        return batch_norm(x, m, v, self.scale, self.bias, self.epsilon)


class Dense(Module):
    def __init__(self, in_features, features):
        super().__init__()
        self.kernel = random_normal((features, in_features)) * 0.01
        self.bias = zeros((features,))

    def forward(self, x):
        return linear(x, self.kernel, self.bias)


class Sequential(Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class ConvBlock(Module):
    def __init__(self, in_channels, num_channels, training=True):
        super().__init__()
        self.num_channels = num_channels
        self.training = training
        self.bn = BatchNorm(in_channels, not self.training)
        self.conv = Conv(in_channels, self.num_channels, kernel_size=3, padding=1)

    def forward(self, X):
        Y = relu(self.bn(X))
        Y = self.conv(Y)
        Y = concat((X, Y), axis=-1)
        return Y


class DenseBlock(Module):
    def __init__(self, in_channels, num_convs, num_channels, training=True):
        super().__init__()
        self.num_convs = num_convs
        self.num_channels = num_channels
        self.training = training
        layer = []
        for i in range(self.num_convs):
            layer.append(ConvBlock(in_channels + i * num_channels, self.num_channels, self.training))
        self.net = Sequential(layer)

    def forward(self, X):
        return self.net(X)


class TransitionBlock(Module):
    def __init__(self, in_channels, num_channels, training=True):
        super().__init__()
        self.num_channels = num_channels
        self.training = training
        self.bn = BatchNorm(in_channels, not self.training)
        self.conv = Conv(in_channels, self.num_channels, kernel_size=1)

    def forward(self, X):
        X = self.bn(X)
        X = relu(X)
        X = self.conv(X)
        X = avg_pool2d(X, (2, 2), (2, 2))
        return X


class DenseNet(Module):
    def __init__(self, in_channels=1, num_channels=64, growth_rate=32, arch=(4, 4, 4, 4),
                 lr=0.1, num_classes=10, training=True):
        super().__init__()
        self.in_channels = in_channels
        self.num_channels = num_channels
        self.growth_rate = growth_rate
        self.arch = arch
        self.lr = lr
        self.num_classes = num_classes
        self.training = training
        self.net = self.create_net()

    def b1(self):
        return [
            Conv(self.in_channels, 64, kernel_size=7, strides=2, padding=3),
            BatchNorm(64, not self.training),
            relu,
            lambda x: max_pool2d(x, 3, 2, padding=1),
        ]

    def create_net(self):
        layers = self.b1()
        num_channels = self.num_channels
        for i, num_convs in enumerate(self.arch):
            layers.extend([DenseBlock(num_channels, num_convs, self.growth_rate,
                                      training=self.training)])
            # The number of output channels in the previous dense block
            num_channels += num_convs * self.growth_rate
            # A transition layer that halves the number of channels is added
            # between the dense blocks
            if i != len(self.arch) - 1:
                in_c = num_channels
                num_channels //= 2
                layers.extend([TransitionBlock(in_c, num_channels,
                                               training=self.training)])
        layers.extend([
            BatchNorm(num_channels, not self.training),
            relu,
            lambda x: avg_pool2d(x, x.shape[2:4], x.shape[2:4]),
            lambda x: x.reshape((x.shape[0], -1)),
            Dense(num_channels, self.num_classes),
        ])
        return Sequential(layers)

    def forward(self, X):
        return self.net(X)


if __name__ == "__main__":
    blk = DenseBlock(3, 2, 10)
    X = random_normal((4, 3, 8, 8))
    Y = blk(X)
    assert Y.shape == (4, 23, 8, 8)
    blk = TransitionBlock(23, 10)
    assert blk(Y).shape == (4, 10, 4, 4)
    model = DenseNet(lr=0.01)
    y = model(random_normal((2, 1, 32, 32)))
    assert y.shape == (2, 10)
    model = DenseNet(num_channels=64, growth_rate=8, arch=(2, 2), training=False)
    y = model(random_normal((2, 1, 32, 32)))
    assert y.shape == (2, 10)
    print("densenet ok", y.shape)
