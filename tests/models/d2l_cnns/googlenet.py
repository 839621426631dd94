"""Multi-Branch Networks (GoogLeNet, d2l 8.4)."""
from fathom import *

from .layers import AdaptiveAvgPool2d, Conv2d, Flatten, Linear, MaxPool2d, ReLU, Sequential


class Inception(Module):
    # c1--c4 are the number of output channels for each branch
    def __init__(self, in_channels, c1, c2, c3, c4):
        super(Inception, self).__init__()
        # Branch 1
        self.b1_1 = Conv2d(in_channels, c1, kernel_size=1)
        # Branch 2
        self.b2_1 = Conv2d(in_channels, c2[0], kernel_size=1)
        self.b2_2 = Conv2d(c2[0], c2[1], kernel_size=3, padding=1)
        # Branch 3
        self.b3_1 = Conv2d(in_channels, c3[0], kernel_size=1)
        self.b3_2 = Conv2d(c3[0], c3[1], kernel_size=5, padding=2)
        # Branch 4
        self.b4_1 = MaxPool2d(kernel_size=3, stride=1, padding=1)
        self.b4_2 = Conv2d(in_channels, c4, kernel_size=1)
        self.out_channels = c1 + c2[1] + c3[1] + c4

    def forward(self, x):
        b1 = relu(self.b1_1(x))
        b2 = relu(self.b2_2(relu(self.b2_1(x))))
        b3 = relu(self.b3_2(relu(self.b3_1(x))))
        b4 = relu(self.b4_2(self.b4_1(x)))
        return concat((b1, b2, b3, b4), axis=1)


class GoogleNet(Module):
    def b1(self):
        return Sequential(
            Conv2d(1, 8, kernel_size=7, stride=2, padding=3),
            ReLU(), MaxPool2d(kernel_size=3, stride=2, padding=1))

    def b2(self):
        return Sequential(
            Conv2d(8, 8, kernel_size=1), ReLU(),
            Conv2d(8, 24, kernel_size=3, padding=1), ReLU(),
            MaxPool2d(kernel_size=3, stride=2, padding=1))

    def b3(self):
        first = Inception(24, 8, (12, 16), (2, 4), 4)
        second = Inception(first.out_channels, 16, (16, 24), (4, 12), 8)
        return Sequential(first, second, MaxPool2d(kernel_size=3, stride=2, padding=1)), second.out_channels

    def __init__(self, lr=0.1, num_classes=10):
        super(GoogleNet, self).__init__()
        self.lr = lr
        b3, channels = self.b3()
        self.net = Sequential(self.b1(), self.b2(), b3, AdaptiveAvgPool2d(), Flatten(),
                              Linear(channels, num_classes))

    def forward(self, X):
        return self.net(X)
