"""ResNet: the bottleneck ResidualBlock and the ResNet cell."""
from fathom import *

from .layers import (Dense, Flatten, MaxPool2d, Pad, ReLU, SequentialCell, Sigmoid, _bn,
                     _bn_last, _conv1x1, _conv3x3, _conv7x7, _fc)

WIDTH_DIV = 16  # channels are the original's divided by this


class ResidualBlock(Module):
    """
    ResNet V1 residual block definition.
    """
    expansion = 4

    def __init__(self, in_channel, out_channel, stride=1, use_se=False, se_block=False):
        super(ResidualBlock, self).__init__()
        self.stride = stride
        self.use_se = use_se
        self.se_block = se_block
        channel = out_channel // self.expansion
        self.conv1 = _conv1x1(in_channel, channel, stride=1, use_se=self.use_se)
        self.bn1 = _bn(channel)
        if self.use_se and self.stride != 1:
            self.e2 = SequentialCell([_conv3x3(channel, channel, stride=1, use_se=True), _bn(channel),
                                      ReLU(), MaxPool2d(kernel_size=2, stride=2, pad_mode='same')])
        else:
            self.conv2 = _conv3x3(channel, channel, stride=stride, use_se=self.use_se)
            self.bn2 = _bn(channel)

        self.conv3 = _conv1x1(channel, out_channel, stride=1, use_se=self.use_se)
        self.bn3 = _bn_last(out_channel)
        if self.se_block:
            self.se_dense_0 = _fc(out_channel, int(out_channel / 4), use_se=self.use_se)
            self.se_dense_1 = _fc(int(out_channel / 4), out_channel, use_se=self.use_se)
            self.se_sigmoid = Sigmoid()
        self.relu = ReLU()

        self.down_sample = False

        if stride != 1 or in_channel != out_channel:
            self.down_sample = True
        self.down_sample_layer = None

        if self.down_sample:
            if self.use_se:
                if stride == 1:
                    self.down_sample_layer = SequentialCell([_conv1x1(in_channel, out_channel,
                                                                      stride, use_se=self.use_se), _bn(out_channel)])
                else:
                    self.down_sample_layer = SequentialCell([MaxPool2d(kernel_size=2, stride=2, pad_mode='same'),
                                                             _conv1x1(in_channel, out_channel, 1,
                                                                      use_se=self.use_se), _bn(out_channel)])
            else:
                self.down_sample_layer = SequentialCell([_conv1x1(in_channel, out_channel, stride,
                                                                  use_se=self.use_se), _bn(out_channel)])

    def construct(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        if self.use_se and self.stride != 1:
            out = self.e2(out)
        else:
            out = self.conv2(out)
            out = self.bn2(out)
            out = self.relu(out)
        out = self.conv3(out)
        out = self.bn3(out)
        if self.se_block:
            out_se = out
            out = mean(out, axis=(2, 3))
            out = self.se_dense_0(out)
            out = self.relu(out)
            out = self.se_dense_1(out)
            out = self.se_sigmoid(out)
            out = reshape(out, out.shape + (1, 1))
            out = out * out_se

        if self.down_sample:
            identity = self.down_sample_layer(identity)

        out = out + identity
        out = self.relu(out)

        return out


class ResNet(Module):
    """
    ResNet architecture.
    """

    def __init__(self, block, layer_nums, in_channels, out_channels, strides, num_classes,
                 use_se=False, res_base=False):
        super(ResNet, self).__init__()

        if not len(layer_nums) == len(in_channels) == len(out_channels) == 4:
            raise ValueError("the length of layer_num, in_channels, out_channels list must be 4!")
        self.use_se = use_se
        self.res_base = res_base
        self.se_block = False
        if self.use_se:
            self.se_block = True

        if self.use_se:
            self.conv1_0 = _conv3x3(3, 32 // WIDTH_DIV, stride=2, use_se=self.use_se)
            self.bn1_0 = _bn(32 // WIDTH_DIV)
            self.conv1_1 = _conv3x3(32 // WIDTH_DIV, 32 // WIDTH_DIV, stride=1, use_se=self.use_se)
            self.bn1_1 = _bn(32 // WIDTH_DIV)
            self.conv1_2 = _conv3x3(32 // WIDTH_DIV, 64 // WIDTH_DIV, stride=1, use_se=self.use_se)
        else:
            self.conv1 = _conv7x7(3, 64 // WIDTH_DIV, stride=2, res_base=self.res_base)
        self.bn1 = _bn(64 // WIDTH_DIV, self.res_base)
        self.relu = ReLU()

        if self.res_base:
            self.pad = Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            self.maxpool = MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
        else:
            self.maxpool = MaxPool2d(kernel_size=3, stride=2, pad_mode="same")

        self.layer1 = self._make_layer(block, layer_nums[0], in_channel=in_channels[0],
                                       out_channel=out_channels[0], stride=strides[0], use_se=self.use_se)
        self.layer2 = self._make_layer(block, layer_nums[1], in_channel=in_channels[1],
                                       out_channel=out_channels[1], stride=strides[1], use_se=self.use_se)
        self.layer3 = self._make_layer(block, layer_nums[2], in_channel=in_channels[2],
                                       out_channel=out_channels[2], stride=strides[2],
                                       use_se=self.use_se, se_block=self.se_block)
        self.layer4 = self._make_layer(block, layer_nums[3], in_channel=in_channels[3],
                                       out_channel=out_channels[3], stride=strides[3],
                                       use_se=self.use_se, se_block=self.se_block)

        self.flatten = Flatten()
        self.end_point = _fc(out_channels[3], num_classes, use_se=self.use_se)

    def _make_layer(self, block, layer_num, in_channel, out_channel, stride, use_se=False, se_block=False):
        layers = []

        resnet_block = block(in_channel, out_channel, stride=stride, use_se=use_se)
        layers.append(resnet_block)
        if se_block:
            for _ in range(1, layer_num - 1):
                resnet_block = block(out_channel, out_channel, stride=1, use_se=use_se)
                layers.append(resnet_block)
            resnet_block = block(out_channel, out_channel, stride=1, use_se=use_se, se_block=se_block)
            layers.append(resnet_block)
        else:
            for _ in range(1, layer_num):
                resnet_block = block(out_channel, out_channel, stride=1, use_se=use_se)
                layers.append(resnet_block)
        return SequentialCell(layers)

    def construct(self, x):
        if self.use_se:
            x = self.conv1_0(x)
            x = self.bn1_0(x)
            x = self.relu(x)
            x = self.conv1_1(x)
            x = self.bn1_1(x)
            x = self.relu(x)
            x = self.conv1_2(x)
        else:
            x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        if self.res_base:
            x = self.pad(x)
        c1 = self.maxpool(x)

        c2 = self.layer1(c1)
        c3 = self.layer2(c2)
        c4 = self.layer3(c3)
        c5 = self.layer4(c4)

        out = mean(c5, axis=(2, 3), keepdims=True)
        out = self.flatten(out)
        out = self.end_point(out)

        return out


def _widths(channels):
    return [c // WIDTH_DIV for c in channels]


def resnet50(class_num=10):
    """Get ResNet50 neural network."""
    return ResNet(ResidualBlock,
                  [3, 4, 6, 3],
                  _widths([64, 256, 512, 1024]),
                  _widths([256, 512, 1024, 2048]),
                  [1, 2, 2, 2],
                  class_num)


def se_resnet50(class_num=1001):
    """Get SE-ResNet50 neural network."""
    return ResNet(ResidualBlock,
                  [3, 4, 6, 3],
                  _widths([64, 256, 512, 1024]),
                  _widths([256, 512, 1024, 2048]),
                  [1, 2, 2, 2],
                  class_num,
                  use_se=True)
