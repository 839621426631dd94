# conv2d(x, w, stride=1, padding=0): NCHW input, OIHW weight;
# each spatial size is (H + 2p - k)//s + 1.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def conv(x: Tensor[f32, (8, 3, 32, 32)], w: Tensor[f32, (16, 3, 3, 3)], w5: Tensor[f32, (4, 3, 5, 5)]):
    reveal_type(conv2d(x, w))  # expect-type: Tensor[f32, (8, 16, 30, 30)]
    reveal_type(conv2d(x, w, padding=1))  # expect-type: Tensor[f32, (8, 16, 32, 32)]
    reveal_type(conv2d(x, w, stride=2, padding=1))  # expect-type: Tensor[f32, (8, 16, 16, 16)]
    reveal_type(conv2d(x, w, 2))  # expect-type: Tensor[f32, (8, 16, 15, 15)]
    reveal_type(conv2d(x, w5, stride=(1, 3), padding=(2, 0)))  # expect-type: Tensor[f32, (8, 4, 32, 10)]
    reveal_type(conv2d(x, w5, 4, 2))  # expect-type: Tensor[f32, (8, 4, 8, 8)]
    return x
