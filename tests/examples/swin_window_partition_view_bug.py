# expect-error at line 81: shape-mismatch
# Planted bug (a copy of tests/models/swin_window_attention.py with one change): x = x.view(B, H // window_size, window_size, W, window_size, C)
"""Swin Transformer block (microsoft/Swin-Transformer models/swin_transformer.py):
window_partition, window_reverse, WindowAttention with the relative position
bias, SwinTransformerBlock with the `if self.shift_size > 0:` SW-MSA mask and
cyclic shift.  Changed: nn layers are small classes; torch.roll is a concat of
slices; meshgrid is broadcasting of aranges; slice(...) objects are (start,
stop) pairs; no fused_window_process kernel (flag kept, False); DropPath is
Identity.  Tiny sizes."""
from fathom import *


def to_2tuple(x):
    if isinstance(x, tuple):
        return x
    return (x, x)


def roll(x, shifts, dims):
    for s, d in zip(shifts, dims):
        n = x.shape[d]
        s = s % n
        if d == 1:
            x = concat([x[:, n - s:], x[:, :n - s]], axis=1)
        else:
            x = concat([x[:, :, n - s:], x[:, :, :n - s]], axis=2)
    return x


class Linear(Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = random_normal((n_out, n_in)) * 0.02
        self.bias = zeros((n_out,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LayerNorm(Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = ones((dim,))
        self.bias = zeros((dim,))

    def forward(self, x):
        return layer_norm(x, self.weight, self.bias)


class GELU(Module):
    def forward(self, x):
        return gelu(x)


class Identity(Module):
    def forward(self, x):
        return x


class Mlp(Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=GELU, drop=0.0):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = Linear(in_features, hidden_features)
        self.act = act_layer()
        self.fc2 = Linear(hidden_features, out_features)
        self.drop = drop

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = dropout(x, self.drop)
        x = self.fc2(x)
        x = dropout(x, self.drop)
        return x


def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W, window_size, C)
    windows = x.permute(0, 1, 3, 2, 4, 5).view(-1, window_size, window_size, C)
    return windows


def window_reverse(windows, window_size, H, W):
    B = int(windows.shape[0] / (H * W / window_size / window_size))
    x = windows.view(B, H // window_size, W // window_size, window_size, window_size, -1)
    x = x.permute(0, 1, 3, 2, 4, 5).view(B, H, W, -1)
    return x


class WindowAttention(Module):
    def __init__(self, dim, window_size, num_heads, qkv_bias=True, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.dim = dim
        self.window_size = window_size  # Wh, Ww
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim**-0.5

        # define a parameter table of relative position bias
        self.relative_position_bias_table = random_normal(
            ((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads)) * 0.02

        # get pair-wise relative position index for each token inside the window
        coords_h = arange(self.window_size[0])
        coords_w = arange(self.window_size[1])
        coords = stack([broadcast_to(coords_h[:, None], window_size),
                        broadcast_to(coords_w[None, :], window_size)])  # 2, Wh, Ww
        coords_flatten = flatten(coords, 1)  # 2, Wh*Ww
        relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]  # 2, Wh*Ww, Wh*Ww
        relative_coords = relative_coords.permute(1, 2, 0)  # Wh*Ww, Wh*Ww, 2
        relative_coords[:, :, 0] += self.window_size[0] - 1  # shift to start from 0
        relative_coords[:, :, 1] += self.window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * self.window_size[1] - 1
        self.relative_position_index = relative_coords.sum(-1)  # Wh*Ww, Wh*Ww

        self.qkv = Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = attn_drop
        self.proj = Linear(dim, dim)
        self.proj_drop = proj_drop

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]

        q = q * self.scale
        attn = q @ k.transpose(-2, -1)

        relative_position_bias = self.relative_position_bias_table[
            self.relative_position_index.view(-1)
        ].view(self.window_size[0] * self.window_size[1], self.window_size[0] * self.window_size[1], -1)
        relative_position_bias = relative_position_bias.permute(2, 0, 1)  # nH, Wh*Ww, Wh*Ww
        attn = attn + expand_dims(relative_position_bias, 0)

        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + expand_dims(expand_dims(mask, 1), 0)
            attn = attn.view(-1, self.num_heads, N, N)
            attn = softmax(attn, axis=-1)
        else:
            attn = softmax(attn, axis=-1)

        attn = dropout(attn, self.attn_drop)

        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        x = self.proj(x)
        x = dropout(x, self.proj_drop)
        return x


class SwinTransformerBlock(Module):
    def __init__(self, dim, input_resolution, num_heads, window_size=7, shift_size=0, mlp_ratio=4.0,
                 qkv_bias=True, qk_scale=None, drop=0.0, attn_drop=0.0, drop_path=0.0,
                 act_layer=GELU, norm_layer=LayerNorm, fused_window_process=False):
        super().__init__()
        self.dim = dim
        self.input_resolution = input_resolution
        self.num_heads = num_heads
        self.window_size = window_size
        self.shift_size = shift_size
        self.mlp_ratio = mlp_ratio
        if min(self.input_resolution) <= self.window_size:
            # if window size is larger than input resolution, we don't partition windows
            self.shift_size = 0
            self.window_size = min(self.input_resolution)
        assert 0 <= self.shift_size < self.window_size, "shift_size must in 0-window_size"

        self.norm1 = norm_layer(dim)
        self.attn = WindowAttention(dim, window_size=to_2tuple(self.window_size), num_heads=num_heads,
                                    qkv_bias=qkv_bias, qk_scale=qk_scale, attn_drop=attn_drop, proj_drop=drop)

        self.drop_path = Identity()
        self.norm2 = norm_layer(dim)
        mlp_hidden_dim = int(dim * mlp_ratio)
        self.mlp = Mlp(in_features=dim, hidden_features=mlp_hidden_dim, act_layer=act_layer, drop=drop)

        if self.shift_size > 0:
            # calculate attention mask for SW-MSA
            H, W = self.input_resolution
            img_mask = zeros((1, H, W, 1))  # 1 H W 1
            h_slices = ((0, -self.window_size), (-self.window_size, -self.shift_size), (-self.shift_size, None))
            w_slices = ((0, -self.window_size), (-self.window_size, -self.shift_size), (-self.shift_size, None))
            cnt = 0
            for h in h_slices:
                for w in w_slices:
                    img_mask[:, h[0]:h[1], w[0]:w[1], :] = cnt
                    cnt += 1

            mask_windows = window_partition(img_mask, self.window_size)  # nW, window_size, window_size, 1
            mask_windows = mask_windows.view(-1, self.window_size * self.window_size)
            attn_mask = expand_dims(mask_windows, 1) - expand_dims(mask_windows, 2)
            attn_mask = masked_fill(masked_fill(attn_mask, attn_mask != 0, float(-100.0)), attn_mask == 0, float(0.0))
        else:
            attn_mask = None

        self.attn_mask = attn_mask
        self.fused_window_process = fused_window_process

    def forward(self, x):
        H, W = self.input_resolution
        B, L, C = x.shape
        assert L == H * W, "input feature has wrong size"

        shortcut = x
        x = self.norm1(x)
        x = x.view(B, H, W, C)

        # cyclic shift
        if self.shift_size > 0:
            shifted_x = roll(x, (-self.shift_size, -self.shift_size), (1, 2))
            # partition windows
            x_windows = window_partition(shifted_x, self.window_size)  # nW*B, window_size, window_size, C
        else:
            shifted_x = x
            # partition windows
            x_windows = window_partition(shifted_x, self.window_size)  # nW*B, window_size, window_size, C

        x_windows = x_windows.view(-1, self.window_size * self.window_size, C)  # nW*B, window_size*window_size, C

        # W-MSA/SW-MSA
        attn_windows = self.attn(x_windows, mask=self.attn_mask)  # nW*B, window_size*window_size, C

        # merge windows
        attn_windows = attn_windows.view(-1, self.window_size, self.window_size, C)

        # reverse cyclic shift
        if self.shift_size > 0:
            shifted_x = window_reverse(attn_windows, self.window_size, H, W)  # B H' W' C
            x = roll(shifted_x, (self.shift_size, self.shift_size), (1, 2))
        else:
            shifted_x = window_reverse(attn_windows, self.window_size, H, W)  # B H' W' C
            x = shifted_x
        x = x.view(B, H * W, C)
        x = shortcut + self.drop_path(x)

        # FFN
        x = x + self.drop_path(self.mlp(self.norm2(x)))

        return x


if __name__ == "__main__":
    H, W, C = 8, 8, 16
    x = random_normal((2, H * W, C))
    blocks = [SwinTransformerBlock(C, (H, W), num_heads=2, window_size=4, shift_size=0 if (i % 2 == 0) else 2)
              for i in range(2)]
    for blk in blocks:
        x = blk(x)
    assert x.shape == (2, 64, 16)
    print("swin ok")
