"""Network in Network (d2l 8.3)."""
from fathom import *

from .layers import AdaptiveAvgPool2d, Conv2d, Dropout, Flatten, MaxPool2d, ReLU, Sequential


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return Sequential(
        Conv2d(in_channels, out_channels, kernel_size, strides, padding), ReLU(),
        Conv2d(out_channels, out_channels, kernel_size=1), ReLU(),
        Conv2d(out_channels, out_channels, kernel_size=1), ReLU())


class NiN(Module):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.lr = lr
        self.net = Sequential(
            nin_block(1, 12, kernel_size=11, strides=4, padding=0),
            MaxPool2d(3, stride=2),
            nin_block(12, 32, kernel_size=5, strides=1, padding=2),
            MaxPool2d(3, stride=2),
            nin_block(32, 48, kernel_size=3, strides=1, padding=1),
            MaxPool2d(3, stride=2),
            Dropout(0.5),
            nin_block(48, num_classes, kernel_size=3, strides=1, padding=1),
            AdaptiveAvgPool2d(),
            Flatten())

    def forward(self, X):
        return self.nets(X)  # expect-error: attribute
