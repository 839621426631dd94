# expect-error at line 143: shape-mismatch
# Planted bug: Block.forward leaves out the permute back to (N, C, H, W), so
# the residual adds a channels-last tensor to the channels-first input (it
# goes unnoticed at stage 0, where C and H are both 8, and fails at stage 1).
"""ConvNeXt, translated from facebookresearch/ConvNeXt models/convnext.py:
Block (7x7 depthwise conv, permute to channels-last, LayerNorm, the two
pointwise Linear layers with GELU between, the layer-scale gamma, permute
back, the residual through DropPath), LayerNorm with its channels_last and
channels_first data formats, and ConvNeXt with its stem, the three
downsampling layers, the four stages with linearly increasing drop-path
rates, the final norm over the pooled features and the head; drop_path and
DropPath come from timm/layers/drop.py.

Changed: nn.Module is fathom.Module; nn.Conv2d, nn.Linear, nn.Sequential,
nn.ModuleList (a list) and nn.Identity are small classes written here;
F.layer_norm is fathom's layer_norm; torch.linspace is a list
comprehension; `(x - u).pow(2)` is `(x - u) ** 2`; DropPath's
`random_tensor.floor_()` is the cast of a comparison with keep_prob (the
same Bernoulli mask) and the network runs at eval (training False, so drop
path is the identity); _init_weights' trunc_normal_ is a scaled normal,
and the head's `weight.data.mul_(head_init_scale)` is Linear's init_scale
argument (an instance is immutable once built);
the network is the tiny depths (1, 1, 2, 1) with dims (8, 16, 24, 32) on
32x32 images so the file runs fast.
"""
from fathom import *

IMAGE_SIZE = 32
NUM_CLASSES = 10


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, groups=1):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels // groups, kernel_size, kernel_size)) * 0.02
        self.bias = zeros((out_channels,))
        self.stride = stride
        self.padding = padding
        self.groups = groups

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding,
                      bias=self.bias, groups=self.groups)


class Linear(Module):
    def __init__(self, in_features, out_features, init_scale=1.):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02 * init_scale
        self.bias = zeros((out_features,)) * init_scale

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Sequential(Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Identity(Module):
    def forward(self, x):
        return x


def drop_path(x, drop_prob=0., training=False, scale_by_keep=True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)  # work with diff dim tensors, not just 2D ConvNets
    random_tensor = cast(random_uniform(shape) < keep_prob, x.dtype)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor = random_tensor / keep_prob
    return x * random_tensor


class DropPath(Module):
    """Drop paths (Stochastic Depth) per sample (when applied in main path of residual blocks)."""

    def __init__(self, drop_prob=0., scale_by_keep=True):
        super(DropPath, self).__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep
        self.training = False

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)


class LayerNorm(Module):
    """LayerNorm that supports two data formats: channels_last (default) or channels_first."""

    def __init__(self, normalized_shape, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = ones((normalized_shape,))
        self.bias = zeros((normalized_shape,))
        self.eps = eps
        self.data_format = data_format
        if self.data_format not in ["channels_last", "channels_first"]:
            raise NotImplementedError
        self.normalized_shape = (normalized_shape,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return layer_norm(x, self.weight, self.bias, self.eps)
        elif self.data_format == "channels_first":
            u = mean(x, axis=1, keepdims=True)
            s = mean((x - u) ** 2, axis=1, keepdims=True)
            x = (x - u) / sqrt(s + self.eps)
            x = self.weight[:, None, None] * x + self.bias[:, None, None]
            return x


class Block(Module):
    """ConvNeXt Block: DwConv -> LayerNorm (channels_last) -> Linear -> GELU -> Linear."""

    def __init__(self, dim, drop_path=0., layer_scale_init_value=1e-6):
        super().__init__()
        self.dwconv = Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)  # depthwise conv
        self.norm = LayerNorm(dim, eps=1e-6)
        self.pwconv1 = Linear(dim, 4 * dim)  # pointwise/1x1 convs, implemented with linear layers
        self.pwconv2 = Linear(4 * dim, dim)
        self.gamma = layer_scale_init_value * ones((dim,)) if layer_scale_init_value > 0 else None
        self.drop_path = DropPath(drop_path) if drop_path > 0. else Identity()

    def forward(self, x):
        input = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)  # (N, C, H, W) -> (N, H, W, C)
        x = self.norm(x)
        x = self.pwconv1(x)
        x = gelu(x)
        x = self.pwconv2(x)
        if self.gamma is not None:
            x = self.gamma * x

        x = input + self.drop_path(x)
        return x


class ConvNeXt(Module):
    def __init__(self, in_chans=3, num_classes=1000,
                 depths=[3, 3, 9, 3], dims=[96, 192, 384, 768], drop_path_rate=0.,
                 layer_scale_init_value=1e-6, head_init_scale=1.):
        super().__init__()

        downsample_layers = []  # stem and 3 intermediate downsampling conv layers
        stem = Sequential([
            Conv2d(in_chans, dims[0], kernel_size=4, stride=4),
            LayerNorm(dims[0], eps=1e-6, data_format="channels_first"),
        ])
        downsample_layers.append(stem)
        for i in range(3):
            downsample_layer = Sequential([
                LayerNorm(dims[i], eps=1e-6, data_format="channels_first"),
                Conv2d(dims[i], dims[i + 1], kernel_size=2, stride=2),
            ])
            downsample_layers.append(downsample_layer)
        self.downsample_layers = downsample_layers

        stages = []  # 4 feature resolution stages, each consisting of multiple residual blocks
        total = sum(depths)
        dp_rates = [drop_path_rate * j / max(total - 1, 1) for j in range(total)]
        cur = 0
        for i in range(4):
            stage = Sequential(
                [Block(dim=dims[i], drop_path=dp_rates[cur + j],
                       layer_scale_init_value=layer_scale_init_value) for j in range(depths[i])]
            )
            stages.append(stage)
            cur += depths[i]
        self.stages = stages

        self.norm = LayerNorm(dims[-1], eps=1e-6)  # final norm layer
        self.head = Linear(dims[-1], num_classes, init_scale=head_init_scale)

    def forward_features(self, x):
        for i in range(4):
            x = self.downsample_layers[i](x)
            x = self.stages[i](x)
        return self.norm(mean(x, axis=(-2, -1)))  # global average pooling, (N, C, H, W) -> (N, C)

    def forward(self, x):
        x = self.forward_features(x)
        x = self.head(x)
        return x


if __name__ == "__main__":
    model = ConvNeXt(num_classes=NUM_CLASSES, depths=[1, 1, 2, 1], dims=[8, 16, 24, 32],
                     drop_path_rate=0.1)
    images = random_normal((2, 3, IMAGE_SIZE, IMAGE_SIZE))
    logits = model(images)
    assert logits.shape == (2, NUM_CLASSES)
    print("convnext ok", logits.shape, float(reduce_sum(logits)))
