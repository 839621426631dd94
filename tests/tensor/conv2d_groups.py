# conv2d's dilation and groups (torch's meaning): w is (O, C/groups, kh,
# kw), O divisible by groups; a dilated kernel spans dilation*(k-1)+1.
# Depthwise convolution (ConvNeXt, MobileNet) is groups=C with w (C, 1,
# kh, kw).  torch's F.conv2d takes the bias third; the DSL's third
# argument is the stride, so a tensor there gets a hint.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def grouped(x: Tensor[f32, (2, 16, 8, 8)], dw: Tensor[f32, (16, 1, 7, 7)],
            g4: Tensor[f32, (8, 4, 3, 3)], b: Tensor[f32, (16,)]):
    reveal_type(conv2d(x, dw, padding=3, groups=16))  # expect-type: Tensor[f32, (2, 16, 8, 8)]
    reveal_type(conv2d(x, g4, groups=4))  # expect-type: Tensor[f32, (2, 8, 6, 6)]
    reveal_type(conv2d(x, g4, dilation=2, groups=4))  # expect-type: Tensor[f32, (2, 8, 4, 4)]
    reveal_type(conv2d(x, g4, padding=2, dilation=(2, 1), groups=4))  # expect-type: Tensor[f32, (2, 8, 8, 10)]
    reveal_type(conv2d(x, dw, bias=b, padding=3, groups=16))  # expect-type: Tensor[f32, (2, 16, 8, 8)]
    conv2d(x, g4, groups=2)  # expect-error: shape-mismatch
    conv2d(x, dw, padding=3, groups=0)  # expect-error: shape-mismatch
    conv2d(x, dw, b, padding=3, groups=16)  # expect-error: type-mismatch
    return x


def not_divisible(x: Tensor[f32, (2, 6, 8, 8)], w: Tensor[f32, (4, 2, 3, 3)]):
    return conv2d(x, w, groups=3)  # expect-error: shape-mismatch
