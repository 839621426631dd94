"""The layers transformer_net.py builds TransformerNet from."""
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


class ReflectionPad2d(Module):
    def __init__(self, padding):
        super().__init__()
        self.padding = padding

    def forward(self, x):
        p = self.padding
        if p == 0:
            return x
        rows = concat([x[:, :, p:0:-1, :], x, x[:, :, -2:-p - 2:-1, :]], axis=2)
        return concat([rows[:, :, :, p:0:-1], rows, rows[:, :, :, -2:-p - 2:-1]], axis=3)


class InstanceNorm2d(Module):
    def __init__(self, num_features, eps=1e-5, affine=False):
        super().__init__()
        self.eps = eps
        self.weight = ones((num_features,)) if affine else None
        self.bias = zeros((num_features,)) if affine else None

    def forward(self, x):
        mu = mean(x, axis=(2, 3), keepdims=True)
        sigma2 = var(x, axis=(2, 3), keepdims=True)
        y = (x - mu) / sqrt(sigma2 + self.eps)
        if self.weight is not None:
            y = y * reshape(self.weight, (1, -1, 1, 1)) + reshape(self.bias, (1, 1, -1, 1))  # expect-error: shape-mismatch
        return y


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class ConvLayer(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = ReflectionPad2d(reflection_padding)
        self.conv2d = Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(Module):
    """ResidualBlock
    introduced in: https://arxiv.org/abs/1512.03385
    recommended architecture: http://torch.ch/blog/2016/02/04/resnets.html
    """

    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = InstanceNorm2d(channels, affine=True)
        self.relu = ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(Module):
    """UpsampleConvLayer
    Upsamples the input and then does a convolution. This method gives better results
    compared to ConvTranspose2d.
    ref: http://distill.pub/2016/deconv-checkerboard/
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = ReflectionPad2d(reflection_padding)
        self.conv2d = Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            # interpolate(x_in, mode='nearest', scale_factor=self.upsample)
            x_in = repeat_interleave(repeat_interleave(x_in, self.upsample, 2), self.upsample, 3)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out
