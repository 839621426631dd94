# Spatial sizes stay exact expressions when H and W are symbols.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def conv(x: Tensor[f32, (N, C, H, W)], w: Tensor[f32, (O, C, 3, 3)], k: Tensor[f32, (O, C, K, K)]):
    reveal_type(conv2d(x, w))  # expect-type: Tensor[f32, (N, O, H-2, W-2)]
    reveal_type(conv2d(x, w, padding=1))  # expect-type: Tensor[f32, (N, O, H, W)]
    reveal_type(conv2d(x, w, stride=2))  # expect-type: Tensor[f32, (N, O, (H+1)//2-1, (W+1)//2-1)]
    reveal_type(conv2d(x, w, stride=2, padding=1))  # expect-type: Tensor[f32, (N, O, (H+1)//2, (W+1)//2)]
    reveal_type(conv2d(x, k))  # expect-type: Tensor[f32, (N, O, H-K+1, W-K+1)]
    return x
