# An attribute that __init__ chose by a flag (`self.norm = LayerNorm2d(d)
# if conv_mlp else LayerNorm(d)`, timm's ConvNeXt block) belongs to the
# flag's value: when the coverage analyses the branch of `if
# self.use_conv_mlp:` that every analysed call skips, the instance was
# built for the other value, so the attributes that flag chose are
# unknown there (no false error from the other layer), while the rest of
# the branch is still checked.  The flag may come from a parameter, or
# from a config object's attribute with an `if` around the assignments.
from fathom import *


class LayerNorm(Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = ones((dim,))
        self.bias = zeros((dim,))

    def forward(self, x):
        return layer_norm(x, self.weight, self.bias)


class LayerNorm2d(Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = ones((dim,))
        self.bias = zeros((dim,))

    def forward(self, x):
        x = transpose(x, (0, 2, 3, 1))
        x = layer_norm(x, self.weight, self.bias)
        return transpose(x, (0, 3, 1, 2))


class Block(Module):
    def __init__(self, dim, conv_mlp=False):
        super().__init__()
        self.use_conv_mlp = conv_mlp
        self.norm = LayerNorm2d(dim) if conv_mlp else LayerNorm(dim)
        self.gamma = ones((dim,))

    def forward(self, x):
        if self.use_conv_mlp:
            x = self.norm(x)
            g = transpose(self.gamma, (1, 0))  # expect-error: shape-mismatch
        else:
            x = transpose(x, (0, 2, 3, 1))
            x = self.norm(x)
            x = transpose(x, (0, 3, 1, 2))
        return x


class Cfg:
    def __init__(self):
        self.flash = False


class Attention(Module):
    def __init__(self, config, d):
        super().__init__()
        self.flash = config.flash
        if config.flash:
            self.proj = ones((d, d))
        else:
            self.proj = ones((d, d // 2))
        self.out = ones((d, d))

    def forward(self, x):
        if self.flash:
            y = x @ self.proj
            z = x @ self.out[0:3]  # expect-error: shape-mismatch
        else:
            y = x @ self.proj
        return y


if __name__ == "__main__":
    b = Block(8)
    print(b(ones((2, 8, 5, 5))).shape)
    a = Attention(Cfg(), 8)
    print(a(ones((2, 8))).shape)
