# expect-error at line 419: attribute
# Planted bug (a copy of tests/models/torchvision_efficientnet.py with one change): result = self.stochastic_dpeth(result)
"""torchvision EfficientNet (torchvision/models/efficientnet.py) with the
pieces it imports: _make_divisible (models/_utils.py), Conv2dNormActivation
and SqueezeExcitation (ops/misc.py), stochastic_depth / StochasticDepth
(ops/stochastic_depth.py).  MBConv and FusedMBConv blocks, MBConvConfig /
FusedMBConvConfig, and an EfficientNet-V2-style net whose builder passes
norm_layer=partial(BatchNorm2d, eps=1e-03).

Changed: nn.Module is fathom.Module; nn layers are small classes; BatchNorm
uses batch statistics; bernoulli_ is a uniform draw compared with the
survival rate; copy.copy(cnf) is a fresh _MBConvConfig with the same fields, written inline (repro_3: through a helper it is a false error);
the type checks on inverted_residual_setting, **kwargs, the deprecated
`block` kwarg and the weight-init loop are left out.  Tiny sizes.
"""
import math
from dataclasses import dataclass
from functools import partial

from fathom import *


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    # Make sure that round down does not go down by more than 10%.
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def _make_ntuple(x, n):
    if isinstance(x, tuple):
        return tuple(x)
    return tuple(x for _ in range(n))


# ---------------------------------------------------------------- nn stand-ins
class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True):
        super().__init__()
        fan_in = in_channels // groups * kernel_size * kernel_size
        self.weight = random_normal((out_channels, in_channels // groups, kernel_size, kernel_size)) * math.sqrt(2.0 / fan_in)
        self.bias = zeros((out_channels,)) if bias else None
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias,
                      dilation=self.dilation, groups=self.groups)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.weight = ones((num_features,))
        self.bias = zeros((num_features,))
        self.eps = eps
        self.momentum = momentum

    def forward(self, x):
        mu = mean(x, axis=(0, 2, 3))
        v = var(x, axis=(0, 2, 3))
        return batch_norm(x, mu, v, self.weight, self.bias, self.eps)


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return silu(x)


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return relu(x)


class Sigmoid(Module):
    def forward(self, x):
        return sigmoid(x)


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, x):
        return mean(x, axis=(2, 3), keepdims=True)


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p
        self.inplace = inplace

    def forward(self, x):
        return dropout(x, self.p)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.out_features = out_features
        self.weight = random_uniform((out_features, in_features), low=-0.1, high=0.1)
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, input):
        for module in self.layers:
            input = module(input)
        return input


# ---------------------------------------------------------------- torchvision.ops
def stochastic_depth(input, p, mode, training=True):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"drop probability has to be between 0 and 1, but got {p}")
    if mode not in ["batch", "row"]:
        raise ValueError(f"mode has to be either 'batch' or 'row', but got {mode}")
    if not training or p == 0.0:
        return input

    survival_rate = 1.0 - p
    if mode == "row":
        size = [input.shape[0]] + [1] * (input.ndim - 1)
    else:
        size = [1] * input.ndim
    noise = cast(random_uniform(tuple(size)) < survival_rate, input.dtype)
    if survival_rate > 0.0:
        noise = noise / survival_rate
    return input * noise


class StochasticDepth(Module):
    def __init__(self, p, mode):
        super().__init__()
        self.p = p
        self.mode = mode
        self.training = True

    def forward(self, input):
        return stochastic_depth(input, self.p, self.mode, self.training)


class Conv2dNormActivation(Sequential):
    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size=3,
        stride=1,
        padding=None,
        groups=1,
        norm_layer=BatchNorm2d,
        activation_layer=ReLU,
        dilation=1,
        inplace=True,
        bias=None,
    ):
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                _conv_dim = len(kernel_size) if isinstance(kernel_size, tuple) else len(dilation)
                kernel_size = _make_ntuple(kernel_size, _conv_dim)
                dilation = _make_ntuple(dilation, _conv_dim)
                padding = tuple((kernel_size[i] - 1) // 2 * dilation[i] for i in range(_conv_dim))
        if bias is None:
            bias = norm_layer is None

        layers = [
            Conv2d(
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation=dilation,
                groups=groups,
                bias=bias,
            )
        ]

        if norm_layer is not None:
            layers.append(norm_layer(out_channels))

        if activation_layer is not None:
            if inplace is None:
                layers.append(activation_layer())
            else:
                layers.append(activation_layer(inplace=inplace))
        super().__init__(*layers)
        self.out_channels = out_channels


class SqueezeExcitation(Module):
    def __init__(self, input_channels, squeeze_channels, activation=ReLU, scale_activation=Sigmoid):
        super().__init__()
        self.avgpool = AdaptiveAvgPool2d(1)
        self.fc1 = Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input):
        scale = self.avgpool(input)
        scale = self.fc1(scale)
        scale = self.activation(scale)
        scale = self.fc2(scale)
        return self.scale_activation(scale)

    def forward(self, input):
        scale = self._scale(input)
        return scale * input


# ---------------------------------------------------------------- efficientnet.py
@dataclass
class _MBConvConfig:
    expand_ratio: float
    kernel: int
    stride: int
    input_channels: int
    out_channels: int
    num_layers: int
    block: object

    @staticmethod
    def adjust_channels(channels, width_mult, min_value=None):
        return _make_divisible(channels * width_mult, 8, min_value)


class MBConvConfig(_MBConvConfig):
    # Stores information listed at Table 1 of the EfficientNet paper & Table 4 of the EfficientNetV2 paper
    def __init__(
        self,
        expand_ratio,
        kernel,
        stride,
        input_channels,
        out_channels,
        num_layers,
        width_mult=1.0,
        depth_mult=1.0,
        block=None,
    ):
        input_channels = self.adjust_channels(input_channels, width_mult)
        out_channels = self.adjust_channels(out_channels, width_mult)
        num_layers = self.adjust_depth(num_layers, depth_mult)
        if block is None:
            block = MBConv
        super().__init__(expand_ratio, kernel, stride, input_channels, out_channels, num_layers, block)

    @staticmethod
    def adjust_depth(num_layers, depth_mult):
        return int(math.ceil(num_layers * depth_mult))


class FusedMBConvConfig(_MBConvConfig):
    # Stores information listed at Table 4 of the EfficientNetV2 paper
    def __init__(
        self,
        expand_ratio,
        kernel,
        stride,
        input_channels,
        out_channels,
        num_layers,
        block=None,
    ):
        if block is None:
            block = FusedMBConv
        super().__init__(expand_ratio, kernel, stride, input_channels, out_channels, num_layers, block)


class MBConv(Module):
    def __init__(
        self,
        cnf,
        stochastic_depth_prob,
        norm_layer,
        se_layer=SqueezeExcitation,
    ):
        super().__init__()

        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")

        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels

        layers = []
        activation_layer = SiLU

        # expand
        expanded_channels = cnf.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        if expanded_channels != cnf.input_channels:
            layers.append(
                Conv2dNormActivation(
                    cnf.input_channels,
                    expanded_channels,
                    kernel_size=1,
                    norm_layer=norm_layer,
                    activation_layer=activation_layer,
                )
            )

        # depthwise
        layers.append(
            Conv2dNormActivation(
                expanded_channels,
                expanded_channels,
                kernel_size=cnf.kernel,
                stride=cnf.stride,
                groups=expanded_channels,
                norm_layer=norm_layer,
                activation_layer=activation_layer,
            )
        )

        # squeeze and excitation
        squeeze_channels = max(1, cnf.input_channels // 4)
        layers.append(se_layer(expanded_channels, squeeze_channels, activation=partial(SiLU, inplace=True)))

        # project
        layers.append(
            Conv2dNormActivation(
                expanded_channels, cnf.out_channels, kernel_size=1, norm_layer=norm_layer, activation_layer=None
            )
        )

        self.block = Sequential(*layers)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.out_channels = cnf.out_channels

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_depth(result)
            result += input
        return result


class FusedMBConv(Module):
    def __init__(
        self,
        cnf,
        stochastic_depth_prob,
        norm_layer,
    ):
        super().__init__()

        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")

        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels

        layers = []
        activation_layer = SiLU

        expanded_channels = cnf.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        if expanded_channels != cnf.input_channels:
            # fused expand
            layers.append(
                Conv2dNormActivation(
                    cnf.input_channels,
                    expanded_channels,
                    kernel_size=cnf.kernel,
                    stride=cnf.stride,
                    norm_layer=norm_layer,
                    activation_layer=activation_layer,
                )
            )

            # project
            layers.append(
                Conv2dNormActivation(
                    expanded_channels, cnf.out_channels, kernel_size=1, norm_layer=norm_layer, activation_layer=None
                )
            )
        else:
            layers.append(
                Conv2dNormActivation(
                    cnf.input_channels,
                    cnf.out_channels,
                    kernel_size=cnf.kernel,
                    stride=cnf.stride,
                    norm_layer=norm_layer,
                    activation_layer=activation_layer,
                )
            )

        self.block = Sequential(*layers)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.out_channels = cnf.out_channels

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_dpeth(result)
            result += input
        return result


def copy_cnf(cnf):
    # copy.copy(cnf): a shallow copy with the same fields
    return _MBConvConfig(cnf.expand_ratio, cnf.kernel, cnf.stride, cnf.input_channels,
                         cnf.out_channels, cnf.num_layers, cnf.block)


class EfficientNet(Module):
    def __init__(
        self,
        inverted_residual_setting,
        dropout,
        stochastic_depth_prob=0.2,
        num_classes=1000,
        norm_layer=None,
        last_channel=None,
    ):
        super().__init__()

        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")

        if norm_layer is None:
            norm_layer = BatchNorm2d

        layers = []

        # building first layer
        firstconv_output_channels = inverted_residual_setting[0].input_channels
        layers.append(
            Conv2dNormActivation(
                3, firstconv_output_channels, kernel_size=3, stride=2, norm_layer=norm_layer, activation_layer=SiLU
            )
        )

        # building inverted residual blocks
        total_stage_blocks = sum(cnf.num_layers for cnf in inverted_residual_setting)
        stage_block_id = 0
        for cnf in inverted_residual_setting:
            stage = []
            for _ in range(cnf.num_layers):
                # copy to avoid modifications. shallow copy is enough
                block_cnf = _MBConvConfig(cnf.expand_ratio, cnf.kernel, cnf.stride, cnf.input_channels,
                                         cnf.out_channels, cnf.num_layers, cnf.block)

                # overwrite info if not the first conv in the stage
                if stage:
                    block_cnf.input_channels = block_cnf.out_channels
                    block_cnf.stride = 1

                # adjust stochastic depth probability based on the depth of the stage block
                sd_prob = stochastic_depth_prob * float(stage_block_id) / total_stage_blocks

                stage.append(block_cnf.block(block_cnf, sd_prob, norm_layer))
                stage_block_id += 1

            layers.append(Sequential(*stage))

        # building last several layers
        lastconv_input_channels = inverted_residual_setting[-1].out_channels
        lastconv_output_channels = last_channel if last_channel is not None else 4 * lastconv_input_channels
        layers.append(
            Conv2dNormActivation(
                lastconv_input_channels,
                lastconv_output_channels,
                kernel_size=1,
                norm_layer=norm_layer,
                activation_layer=SiLU,
            )
        )

        self.features = Sequential(*layers)
        self.avgpool = AdaptiveAvgPool2d(1)
        self.classifier = Sequential(
            Dropout(p=dropout, inplace=True),
            Linear(lastconv_output_channels, num_classes),
        )

    def _forward_impl(self, x):
        x = self.features(x)

        x = self.avgpool(x)
        x = flatten(x, 1)

        x = self.classifier(x)

        return x

    def forward(self, x):
        return self._forward_impl(x)


def _efficientnet_conf(arch, width_mult=1.0, depth_mult=1.0):
    if arch == "efficientnet_b0":  # arch.startswith("efficientnet_b"): str methods are not in the DSL (repro_5)
        bneck_conf = partial(MBConvConfig, width_mult=width_mult, depth_mult=depth_mult)
        inverted_residual_setting = [
            bneck_conf(1, 3, 1, 8, 8, 1),
            bneck_conf(6, 3, 2, 8, 16, 2),
            bneck_conf(6, 5, 2, 16, 24, 1),
        ]
        last_channel = None
    else:
        inverted_residual_setting = [
            FusedMBConvConfig(1, 3, 1, 8, 8, 2),
            FusedMBConvConfig(4, 3, 2, 8, 16, 2),
            MBConvConfig(4, 3, 2, 16, 24, 2),
            MBConvConfig(6, 3, 1, 24, 32, 1),
        ]
        last_channel = 64
    return inverted_residual_setting, last_channel


def efficientnet_v2_tiny(num_classes=10):
    inverted_residual_setting, last_channel = _efficientnet_conf("efficientnet_v2_s")
    return EfficientNet(
        inverted_residual_setting,
        0.2,
        last_channel=last_channel,
        num_classes=num_classes,
        norm_layer=partial(BatchNorm2d, eps=1e-03),
    )


def efficientnet_b_tiny(num_classes=10):
    inverted_residual_setting, last_channel = _efficientnet_conf("efficientnet_b0", width_mult=1.0, depth_mult=1.0)
    return EfficientNet(inverted_residual_setting, 0.2, last_channel=last_channel, num_classes=num_classes)


if __name__ == "__main__":
    x = random_normal((2, 3, 32, 32))
    model = efficientnet_v2_tiny()
    y = model(x)
    assert y.shape == (2, 10)
    model_b = efficientnet_b_tiny()
    y = model_b(x)
    assert y.shape == (2, 10)
    print("efficientnet ok")
