# Slices whose bounds are symbolic dims that provably satisfy
# 0 <= start <= stop <= size keep an exact length: the GLU / gate-split
# idiom x[..., :h], x[..., h:] with h = x.shape[-1] // 2.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def halves(x: Tensor[f32, (B, T, 2*H)], y: Tensor[f32, (N, 8)], z: Tensor[f32, (M,)]):
    d = x.shape[-1]
    h = d // 2
    reveal_type(x[..., :h])  # expect-type: Tensor[f32, (B, T, H)]
    reveal_type(x[..., h:])  # expect-type: Tensor[f32, (B, T, H)]
    reveal_type(x[..., h:d])  # expect-type: Tensor[f32, (B, T, H)]
    t = x.shape[1]
    reveal_type(x[:, :t - 1])  # expect-type: Tensor[f32, (B, T-1, 2*H)]
    reveal_type(x[:, :3])  # expect-type: Tensor[f32, (B, ?, 2*H)]
    n = y.shape[0]
    reveal_type(y[n - 1:])  # expect-type: Tensor[f32, (1, 8)]
    m = z.shape[0]
    reveal_type(z[:m - 2])  # expect-type: Tensor[f32, (?,)]
    reveal_type(z[m // 2:])  # expect-type: Tensor[f32, (?,)]
    reveal_type(z[m:])  # expect-type: Tensor[f32, (0,)]
    reveal_type(z[1:m])  # expect-type: Tensor[f32, (M-1,)]
    return x


def glu(x: Tensor[f32, (B, 2*H)], w: Tensor[f32, (H, 4)]):
    h = x.shape[-1] // 2
    gated = x[:, :h] * sigmoid(x[:, h:])
    return gated @ w


def glu_wrong_weight(x: Tensor[f32, (B, 2*H)], w: Tensor[f32, (2*H, 4)]):
    h = x.shape[-1] // 2
    gated = x[:, :h] * sigmoid(x[:, h:])
    return gated @ w  # expect-error: shape-mismatch
