"""MobileNetV2 in MindSpore's Cell form, translated from mindspore-ai/models
official/cv/MobileNetV2/src/mobilenetV2.py: _make_divisible, GlobalAvgPooling,
ConvBNReLU (depthwise when groups equals the channels), InvertedResidual
with its expansion layer and residual shortcut, MobileNetV2Backbone built
from the inverted_residual_setting table with width_mult, MobileNetV2Head
with its optional dropout and Sigmoid/Softmax activation, and
MobileNetV2Combine joining the two.

Changed: nn.Cell is fathom.Module (calling a cell runs `construct`);
nn.Conv2d, nn.BatchNorm2d (inference form, with its moving statistics),
nn.ReLU6, nn.Dense, nn.Dropout and nn.SequentialCell are small cells
written here; P.ReduceMean, P.Sigmoid and P.Softmax are written inline;
`round(inp * expand_ratio)` is int(...) (the DSL has no round) and
`head.insert(1, Dropout)` builds the list with the dropout in place;
Cell.__init__'s auto_prefix argument is dropped; the
network runs at width_mult 0.25 with a shortened setting table (one
block per stage) on 32x32 images so the file runs fast.
"""
from fathom import *

NUM_CLASSES = 10
IMAGE_SIZE = 32


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    # Make sure that round down does not go down by more than 10%.
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, group=1, has_bias=False):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels // group, kernel_size, kernel_size)) * 0.1
        self.stride = stride
        self.padding = padding
        self.group = group
        self.has_bias = has_bias
        if has_bias:
            self.bias = zeros((out_channels,))

    def construct(self, x):
        if self.has_bias:
            return conv2d(x, self.weight, stride=self.stride, padding=self.padding,
                          groups=self.group, bias=self.bias)
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, groups=self.group)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.gamma = ones((num_features,))
        self.beta = zeros((num_features,))
        self.moving_mean = zeros((num_features,))
        self.moving_variance = ones((num_features,))
        self.eps = eps

    def construct(self, x):
        return batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, self.eps)


class ReLU6(Module):
    def construct(self, x):
        return clip(x, 0.0, 6.0)


class Dense(Module):
    def __init__(self, in_channels, out_channels, has_bias=True):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels)) * 0.1
        self.bias = zeros((out_channels,)) if has_bias else None

    def construct(self, x):
        return linear(x, self.weight, self.bias)


class Dropout(Module):
    def __init__(self, keep_prob=0.5):
        super().__init__()
        self.keep_prob = keep_prob

    def construct(self, x):
        return dropout(x, 1.0 - self.keep_prob)


class SequentialCell(Module):
    def __init__(self, cells):
        super().__init__()
        self.cells = cells

    def construct(self, x):
        for cell in self.cells:
            x = cell(x)
        return x


class GlobalAvgPooling(Module):
    """Global avg pooling definition: the mean over H and W."""

    def construct(self, x):
        return mean(x, axis=(2, 3), keepdims=False)


class ConvBNReLU(Module):
    """Convolution/Depthwise fused with Batchnorm and ReLU block definition."""

    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super(ConvBNReLU, self).__init__()
        padding = (kernel_size - 1) // 2
        in_channels = in_planes
        out_channels = out_planes
        if groups == 1:
            conv = Conv2d(in_channels, out_channels, kernel_size, stride, padding=padding)
        else:
            out_channels = in_planes
            conv = Conv2d(in_channels, out_channels, kernel_size, stride, padding=padding, group=in_channels)
        layers = [conv, BatchNorm2d(out_planes), ReLU6()]
        self.features = SequentialCell(layers)

    def construct(self, x):
        output = self.features(x)
        return output


class InvertedResidual(Module):
    """Mobilenetv2 residual block definition."""

    def __init__(self, inp, oup, stride, expand_ratio):
        super(InvertedResidual, self).__init__()
        assert stride in [1, 2]

        hidden_dim = int(inp * expand_ratio)
        self.use_res_connect = stride == 1 and inp == oup

        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([
            # dw
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
            # pw-linear
            Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
            BatchNorm2d(oup),
        ])
        self.conv = SequentialCell(layers)

    def construct(self, x):
        identity = x
        x = self.conv(x)
        if self.use_res_connect:
            return identity + x
        return x


class MobileNetV2Backbone(Module):
    """MobileNetV2 architecture without the classifier head."""

    def __init__(self, width_mult=1., inverted_residual_setting=None, round_nearest=8,
                 input_channel=32, last_channel=1280):
        super(MobileNetV2Backbone, self).__init__()
        block = InvertedResidual
        # setting of inverted residual blocks
        self.cfgs = inverted_residual_setting
        if inverted_residual_setting is None:
            self.cfgs = [
                # t, c, n, s
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]

        # building first layer
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features = [ConvBNReLU(3, input_channel, stride=2)]
        # building inverted residual blocks
        for t, c, n, s in self.cfgs:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(block(input_channel, output_channel, stride, expand_ratio=t))
                input_channel = output_channel
        # building last several layers
        features.append(ConvBNReLU(input_channel, self.out_channels, kernel_size=1))
        # make it nn.CellList
        self.features = SequentialCell(features)

    def construct(self, x):
        x = self.features(x)
        return x

    def get_features(self):
        return self.features


class MobileNetV2Head(Module):
    """MobileNetV2 head: pooling, optional dropout, dense, optional activation."""

    def __init__(self, input_channel=1280, num_classes=1000, has_dropout=False, activation="None"):
        super(MobileNetV2Head, self).__init__()
        # mobilenet head
        if has_dropout:
            head = [GlobalAvgPooling(), Dropout(0.8), Dense(input_channel, num_classes, has_bias=True)]
        else:
            head = [GlobalAvgPooling(), Dense(input_channel, num_classes, has_bias=True)]
        self.head = SequentialCell(head)
        self.need_activation = True
        self.softmax_activation = activation == "Softmax"
        if activation == "Sigmoid":
            self.need_activation = True
        elif activation == "Softmax":
            self.need_activation = True
        else:
            self.need_activation = False

    def construct(self, x):
        x = self.head(x)
        if self.need_activation:
            if self.softmax_activation:
                x = softmax(x, axis=-1)
            else:
                x = sigmoid(x)
        return x


class MobileNetV2Combine(Module):
    """MobileNetV2Combine architecture: a backbone followed by a head."""

    def __init__(self, backbone, head):
        super(MobileNetV2Combine, self).__init__()
        self.backbone = backbone
        self.head = head

    def construct(self, x):
        x = self.backbone(x)
        x = self.head(x)
        return x


def mobilenet_v2(backbone, head):
    return MobileNetV2Combine(backbone, head)


SMALL_SETTING = [
    # t, c, n, s
    [1, 16, 1, 1],
    [6, 24, 1, 2],
    [6, 32, 1, 2],
    [6, 64, 1, 2],
    [6, 96, 1, 1],
]

if __name__ == "__main__":
    backbone_net = MobileNetV2Backbone(width_mult=0.25, inverted_residual_setting=SMALL_SETTING,
                                       last_channel=64)
    head_net = MobileNetV2Head(input_channel=backbone_net.out_channels, num_classes=NUM_CLASSES,
                               activation="Softmax")
    net = mobilenet_v2(backbone_net, head_net)
    images = random_normal((2, 3, IMAGE_SIZE, IMAGE_SIZE))
    probs = net(images)
    assert probs.shape == (2, NUM_CLASSES)
    print("mobilenetv2 ok", probs.shape, float(reduce_sum(probs)))
