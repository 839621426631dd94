# expect-error at line 31: shape-mismatch
# Planted bug: the stage condition in ResNet.block lost its 'not': the first stage gets the strided 1x1 block and the second none, so Residual.conv1 of the second stage (built for 16 input channels) gets 8; Conv2d.forward reports it, called from Residual.forward.
"""ResNet in its original class form, translated from d2l-ai/d2l-en
chapter_convolutional-modern/resnet.md (PyTorch tab): the `Residual`
block with `use_1x1conv` and `strides` (conv3 is None without the 1x1
convolution, tested with `if self.conv3:`), and `ResNet` with `b1`,
`block(num_residuals, num_channels, first_block)` and the head.

Changed: nn.Module is fathom.Module; nn.LazyConv2d / nn.LazyBatchNorm2d /
nn.LazyLinear take their input size explicitly (the DSL has no lazy
shapes); BatchNorm2d normalises with the batch statistics (training
mode); nn.Sequential is a small Sequential over a tuple of layers;
MaxPool2d(3, 2, padding=1) is max_pool2d(Y, 3, 2, padding=1);
AdaptiveAvgPool2d((1, 1)) + Flatten is a mean over H and W.  Channel counts
are tiny so the file runs fast.
"""
import math

from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding=0, stride=1):
        super().__init__()
        scale = math.sqrt(2.0 / (in_channels * kernel_size * kernel_size))
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * scale
        self.padding = padding
        self.stride = stride

    def forward(self, X):
        return conv2d(X, self.weight, stride=self.stride, padding=self.padding)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.gamma = ones((1, num_features, 1, 1))
        self.beta = zeros((1, num_features, 1, 1))
        self.eps = eps

    def forward(self, X):
        mu = mean(X, axis=(0, 2, 3), keepdims=True)
        var_ = mean((X - mu) ** 2, axis=(0, 2, 3), keepdims=True)
        return self.gamma * (X - mu) / sqrt(var_ + self.eps) + self.beta


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.01
        self.bias = zeros((out_features,))

    def forward(self, X):
        return linear(X, self.weight, self.bias)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, X):
        for layer in self.layers:
            X = layer(X)
        return X


class Residual(Module):
    """The Residual block of ResNet models."""

    def __init__(self, in_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = Conv2d(in_channels, num_channels, kernel_size=3, padding=1, stride=strides)
        self.conv2 = Conv2d(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = Conv2d(in_channels, num_channels, kernel_size=1, stride=strides)
        else:
            self.conv3 = None
        self.bn1 = BatchNorm2d(num_channels)
        self.bn2 = BatchNorm2d(num_channels)

    def forward(self, X):
        Y = relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return relu(Y)


class ResNet(Module):
    def b1(self, in_channels):
        return Sequential(
            Conv2d(in_channels, 8, kernel_size=7, stride=2, padding=3),
            BatchNorm2d(8))

    def block(self, in_channels, num_residuals, num_channels, first_block=False):
        blk = []
        for i in range(num_residuals):
            if i == 0 and first_block:
                blk.append(Residual(in_channels, num_channels, use_1x1conv=True, strides=2))
            else:
                blk.append(Residual(num_channels, num_channels))
        return blk

    def __init__(self, arch, in_channels=1, num_classes=10):
        super(ResNet, self).__init__()
        self.stem = self.b1(in_channels)
        stages = []
        c = 8
        for i, b in enumerate(arch):
            stages.append(self.block(c, *b, first_block=(i == 0)))
            c = b[1]
        self.stages = stages
        self.fc = Linear(c, num_classes)

    def forward(self, X):
        Y = max_pool2d(relu(self.stem(X)), 3, 2, padding=1)
        for stage in self.stages:
            for blk in stage:
                Y = blk(Y)
        Y = mean(Y, axis=(2, 3))
        return self.fc(Y)


class ResNet18(ResNet):
    def __init__(self, num_classes=10):
        super().__init__(((2, 8), (2, 16)), num_classes=num_classes)


if __name__ == "__main__":
    blk = Residual(3, 3)
    X = random_normal((4, 3, 6, 6))
    assert blk(X).shape == (4, 3, 6, 6)
    blk = Residual(3, 6, use_1x1conv=True, strides=2)
    assert blk(X).shape == (4, 6, 3, 3)
    model = ResNet18()
    logits = model(random_normal((2, 1, 32, 32)))
    assert logits.shape == (2, 10)
    print("d2l resnet (classes) ok")
