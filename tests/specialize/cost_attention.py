# args: --emit cost --entry attention --sizes B=8,T=1024,C=64
# Scaled dot-product attention, checked by hand (tests/specialize/cost_attention.ir):
#   k.mT:          a view, 0 flops
#   q @ k.mT:      (B, T, C) by (B, C, T): 2 * B * T * T * C
#   s / 8.0:       B * T * T
#   softmax:       5 * B * T * T
#   p @ v:         (B, T, T) by (B, T, C): 2 * B * T * C * T
#   flops total    = 4*B*T*T*C + 6*B*T*T
from __future__ import annotations
from fathom import *


def attention(q: Tensor[f32, (B, T, C)], k: Tensor[f32, (B, T, C)], v: Tensor[f32, (B, T, C)]):
    s = q @ k.mT
    p = softmax(s / 8.0)
    return p @ v
