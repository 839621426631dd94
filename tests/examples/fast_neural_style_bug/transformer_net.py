"""TransformerNet: the feed-forward style transfer network."""
from fathom import *

from .layers import ConvLayer, InstanceNorm2d, ReLU, ResidualBlock, UpsampleConvLayer

WIDTH = 4  # 32 in the original


class TransformerNet(Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        # Initial convolution layers
        self.conv1 = ConvLayer(3, WIDTH, kernel_size=9, stride=1)
        self.in1 = InstanceNorm2d(WIDTH, affine=True)
        self.conv2 = ConvLayer(WIDTH, 2 * WIDTH, kernel_size=3, stride=2)
        self.in2 = InstanceNorm2d(2 * WIDTH, affine=True)
        self.conv3 = ConvLayer(2 * WIDTH, 4 * WIDTH, kernel_size=3, stride=2)
        self.in3 = InstanceNorm2d(4 * WIDTH, affine=True)
        # Residual layers
        self.res1 = ResidualBlock(4 * WIDTH)
        self.res2 = ResidualBlock(4 * WIDTH)
        self.res3 = ResidualBlock(4 * WIDTH)
        self.res4 = ResidualBlock(4 * WIDTH)
        self.res5 = ResidualBlock(4 * WIDTH)
        # Upsampling Layers
        self.deconv1 = UpsampleConvLayer(4 * WIDTH, 2 * WIDTH, kernel_size=3, stride=1, upsample=2)
        self.in4 = InstanceNorm2d(2 * WIDTH, affine=True)
        self.deconv2 = UpsampleConvLayer(2 * WIDTH, WIDTH, kernel_size=3, stride=1, upsample=2)
        self.in5 = InstanceNorm2d(WIDTH, affine=True)
        self.deconv3 = ConvLayer(WIDTH, 3, kernel_size=9, stride=1)
        # Non-linearities
        self.relu = ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.relu(self.in3(self.conv3(y)))
        y = self.res1(y)
        y = self.res2(y)
        y = self.res3(y)
        y = self.res4(y)
        y = self.res6(y)  # expect-error: attribute
        y = self.relu(self.in4(self.deconv1(y)))
        y = self.relu(self.in5(self.deconv2(y)))
        y = self.deconv3(y)
        return y
