"""Networks Using Blocks (VGG, d2l 8.2)."""
from fathom import *

from .layers import Conv2d, Dropout, Flatten, Linear, MaxPool2d, ReLU, Sequential


def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(Conv2d(in_channels, out_channels, kernel_size=3, padding=1))
        layers.append(ReLU())
        in_channels = out_channels
    layers.append(MaxPool2d(kernel_size=2, stride=2))
    return Sequential(*layers)


class VGG(Module):
    def __init__(self, arch, image_size, lr=0.1, num_classes=10):
        super().__init__()
        self.lr = lr
        conv_blks = []
        in_channels = 1
        for (num_convs, out_channels) in arch:
            conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
            in_channels = out_channels
        side = image_size // 2 ** len(arch)
        self.net = Sequential(
            *conv_blks, Flatten(),
            Linear(in_channels * side * side, 64), ReLU(), Dropout(0.5),
            Linear(64, 64), ReLU(), Dropout(0.5),
            Linear(64, num_classes))

    def forward(self, X):
        return self.net(X)
