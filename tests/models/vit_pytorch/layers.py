"""The torch.nn layers vit.py builds with (and einops' Rearrange for patches)."""
from fathom import *


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * in_features ** -0.5
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.weight = ones((normalized_shape,))
        self.bias = zeros((normalized_shape,))
        self.eps = eps

    def forward(self, x):
        return layer_norm(x, self.weight, self.bias, self.eps)


class GELU(Module):
    def forward(self, x):
        return gelu(x)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class Identity(Module):
    def forward(self, x):
        return x


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class PatchRearrange(Module):
    """Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)', p1=..., p2=...)"""

    def __init__(self, p1, p2):
        super().__init__()
        self.p1 = p1
        self.p2 = p2

    def forward(self, img):
        b, c, H, W = img.shape
        h, w = H // self.p1, W // self.p2
        x = reshape(img, (b, c, h, self.p1, w, self.p2))
        return reshape(transpose(x, (0, 2, 4, 3, 5, 1)), (b, h * w, self.p1 * self.p2 * c))
