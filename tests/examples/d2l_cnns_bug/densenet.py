"""Densely Connected Networks (DenseNet, d2l 8.7)."""
from fathom import *

from .layers import AvgPool2d, BatchNorm2d, Conv2d, ReLU, Sequential


def conv_block(in_channels, num_channels):
    return Sequential(
        BatchNorm2d(in_channels), ReLU(),
        Conv2d(in_channels, num_channels, kernel_size=3, padding=1))


class DenseBlock(Module):
    def __init__(self, num_convs, in_channels, num_channels):
        super(DenseBlock, self).__init__()
        layer = []
        for i in range(num_convs):
            layer.append(conv_block(in_channels + i * num_channels, num_channels))
        self.net = layer
        self.out_channels = in_channels + num_convs * num_channels

    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            # Concatenate input and output of each block along the channels
            X = concat((X, Y), axis=0)  # expect-error: shape-mismatch
        return X


def transition_block(in_channels, num_channels):
    return Sequential(
        BatchNorm2d(in_channels), ReLU(),
        Conv2d(in_channels, num_channels, kernel_size=1),
        AvgPool2d(kernel_size=2, stride=2))
