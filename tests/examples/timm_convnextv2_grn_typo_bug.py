# expect-error at line 226: attribute
# Planted bug (a copy of tests/models/timm_convnextv2.py with one change): x = self.gnr(x)
"""timm ConvNeXt block in its ConvNeXt-V2 form (timm/models/convnext.py
ConvNeXtBlock and Downsample; timm/layers/grn.py GlobalResponseNorm;
timm/layers/mlp.py Mlp and GlobalResponseNormMlp; timm/layers/norm.py
LayerNorm and LayerNorm2d; timm/layers/helpers.py _ntuple; drop_path).

Changed: nn.Module is fathom.Module; nn.Linear / nn.Conv2d / nn.GELU /
nn.Identity / nn.Dropout / nn.AvgPool2d are small classes; create_conv2d
(depthwise=True) is Conv2d with groups=in_chs and 'same' padding;
get_act_layer('gelu') returns GELU; x.norm(p=2, ...) is sqrt(sum(x*x));
torch.addcmul(b, w, t) is b + w * t; bernoulli_ is a uniform draw; no
device/dtype kwargs; _fast_norm is False.  Tiny sizes.
"""
from functools import partial

from fathom import *


def _ntuple(n):
    def parse(x):
        if isinstance(x, tuple):
            return tuple(x)
        return tuple(x for _ in range(n))
    return parse


to_2tuple = _ntuple(2)
to_ntuple = _ntuple


def drop_path(x, drop_prob=0., training=False, scale_by_keep=True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = cast(random_uniform(shape) < keep_prob, x.dtype)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor = random_tensor / keep_prob
    return x * random_tensor


class DropPath(Module):
    def __init__(self, drop_prob=0., scale_by_keep=True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep
        self.training = True

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)


class Identity(Module):
    def forward(self, x):
        return x


class GELU(Module):
    def forward(self, x):
        return gelu(x)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels // groups, kernel_size, kernel_size)) * 0.02
        self.bias = zeros((out_channels,)) if bias else None
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias,
                      dilation=self.dilation, groups=self.groups)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def forward(self, x):
        return avg_pool2d(x, self.kernel_size, self.stride)


def create_conv2d(in_channels, out_channels, kernel_size, stride=1, dilation=1, depthwise=False, bias=True):
    groups = in_channels if depthwise else 1
    padding = ((stride - 1) + dilation * (kernel_size - 1)) // 2
    return Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                  dilation=dilation, groups=groups, bias=bias)


def get_act_layer(name):
    if name == 'gelu':
        return GELU
    return name


class LayerNorm(Module):
    """ LayerNorm w/ fast norm option """

    def __init__(self, num_channels, eps=1e-6, affine=True):
        super().__init__()
        self.normalized_shape = (num_channels,)
        self.eps = eps
        self.weight = ones((num_channels,)) if affine else None
        self.bias = zeros((num_channels,)) if affine else None

    def forward(self, x):
        x = layer_norm(x, self.weight, self.bias, self.eps)
        return x


class LayerNorm2d(LayerNorm):
    """ LayerNorm for channels of '2D' spatial NCHW tensors """

    def __init__(self, num_channels, eps=1e-6, affine=True):
        super().__init__(num_channels, eps=eps, affine=affine)
        self._fast_norm = False

    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = layer_norm(x, self.weight, self.bias, self.eps)
        x = x.permute(0, 3, 1, 2)
        return x


class GlobalResponseNorm(Module):
    """ Global Response Normalization layer
    """
    def __init__(self, dim, eps=1e-6, channels_last=True):
        super().__init__()
        self.eps = eps
        if channels_last:
            self.spatial_dim = (1, 2)
            self.channel_dim = -1
            self.wb_shape = (1, 1, 1, -1)
        else:
            self.spatial_dim = (2, 3)
            self.channel_dim = 1
            self.wb_shape = (1, -1, 1, 1)

        self.weight = zeros((dim,))
        self.bias = zeros((dim,))

    def forward(self, x):
        x_g = sqrt(sum(x * x, axis=self.spatial_dim, keepdims=True))
        x_n = x_g / (x_g.mean(axis=self.channel_dim, keepdims=True) + self.eps)
        return x + (self.bias.view(self.wb_shape) + self.weight.view(self.wb_shape) * (x * x_n))


class Mlp(Module):
    """ MLP as used in Vision Transformer, MLP-Mixer and related networks
    """
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=GELU,
                 norm_layer=None, bias=True, drop=0., use_conv=False):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        bias = to_2tuple(bias)
        drop_probs = to_2tuple(drop)
        linear_layer = partial(Conv2d, kernel_size=1) if use_conv else Linear

        self.fc1 = linear_layer(in_features, hidden_features, bias=bias[0])
        self.act = act_layer()
        self.drop1 = Dropout(drop_probs[0])
        self.norm = norm_layer(hidden_features) if norm_layer is not None else Identity()
        self.fc2 = linear_layer(hidden_features, out_features, bias=bias[1])
        self.drop2 = Dropout(drop_probs[1])

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop1(x)
        x = self.norm(x)
        x = self.fc2(x)
        x = self.drop2(x)
        return x


class GlobalResponseNormMlp(Module):
    """ MLP w/ Global Response Norm (see grn.py), nn.Linear or 1x1 Conv2d
    """
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=GELU,
                 bias=True, drop=0., use_conv=False):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        bias = to_2tuple(bias)
        drop_probs = to_2tuple(drop)
        linear_layer = partial(Conv2d, kernel_size=1) if use_conv else Linear

        self.fc1 = linear_layer(in_features, hidden_features, bias=bias[0])
        self.act = act_layer()
        self.drop1 = Dropout(drop_probs[0])
        self.grn = GlobalResponseNorm(hidden_features, channels_last=not use_conv)
        self.fc2 = linear_layer(hidden_features, out_features, bias=bias[1])
        self.drop2 = Dropout(drop_probs[1])

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop1(x)
        x = self.gnr(x)
        x = self.fc2(x)
        x = self.drop2(x)
        return x


class Downsample(Module):
    def __init__(self, in_chs, out_chs, stride=1, dilation=1):
        super().__init__()
        avg_stride = stride if dilation == 1 else 1
        if stride > 1 or dilation > 1:
            self.pool = AvgPool2d(2, avg_stride, ceil_mode=True, count_include_pad=False)
        else:
            self.pool = Identity()

        if in_chs != out_chs:
            self.conv = create_conv2d(in_chs, out_chs, 1, stride=1)
        else:
            self.conv = Identity()

    def forward(self, x):
        x = self.pool(x)
        x = self.conv(x)
        return x


class ConvNeXtBlock(Module):
    def __init__(
            self,
            in_chs,
            out_chs=None,
            kernel_size=7,
            stride=1,
            dilation=(1, 1),
            mlp_ratio=4,
            conv_mlp=False,
            conv_bias=True,
            use_grn=False,
            ls_init_value=1e-6,
            act_layer='gelu',
            norm_layer=None,
            drop_path=0.,
    ):
        super().__init__()
        out_chs = out_chs or in_chs
        dilation = to_ntuple(2)(dilation)
        act_layer = get_act_layer(act_layer)
        if not norm_layer:
            norm_layer = LayerNorm2d if conv_mlp else LayerNorm
        mlp_layer = partial(GlobalResponseNormMlp if use_grn else Mlp, use_conv=conv_mlp)
        self.use_conv_mlp = conv_mlp
        self.conv_dw = create_conv2d(
            in_chs,
            out_chs,
            kernel_size=kernel_size,
            stride=stride,
            dilation=dilation[0],
            depthwise=True,
            bias=conv_bias,
        )
        self.norm = norm_layer(out_chs)
        self.mlp = mlp_layer(
            out_chs,
            int(mlp_ratio * out_chs),
            act_layer=act_layer,
        )
        self.gamma = ls_init_value * ones((out_chs,)) if ls_init_value is not None else None
        if in_chs != out_chs or stride != 1 or dilation[0] != dilation[1]:
            self.shortcut = Downsample(in_chs, out_chs, stride=stride, dilation=dilation[0])
        else:
            self.shortcut = Identity()
        self.drop_path = DropPath(drop_path) if drop_path > 0. else Identity()

    def forward(self, x):
        shortcut = x
        x = self.conv_dw(x)
        if self.use_conv_mlp:
            x = self.norm(x)
            x = self.mlp(x)
        else:
            x = x.permute(0, 2, 3, 1)
            x = self.norm(x)
            x = self.mlp(x)
            x = x.permute(0, 3, 1, 2)
        if self.gamma is not None:
            x = x * self.gamma.reshape(1, -1, 1, 1)

        x = self.drop_path(x) + self.shortcut(shortcut)
        return x


if __name__ == "__main__":
    x = random_normal((2, 16, 8, 8))
    # ConvNeXt-V2 settings: use_grn=True, ls_init_value=None
    blk = ConvNeXtBlock(16, use_grn=True, ls_init_value=None, drop_path=0.1)
    y = blk(x)
    assert y.shape == (2, 16, 8, 8)
    # channels-first MLP (1x1 convs + LayerNorm2d) and a downsampling shortcut
    blk2 = ConvNeXtBlock(16, 32, stride=2, use_grn=True, conv_mlp=True, ls_init_value=None)
    y2 = blk2(y)
    assert y2.shape == (2, 32, 4, 4)
    # ConvNeXt V1 block: plain Mlp with layer scale
    blk3 = ConvNeXtBlock(32, kernel_size=3)
    y3 = blk3(y2)
    assert y3.shape == (2, 32, 4, 4)
    print("convnext v2 ok")
