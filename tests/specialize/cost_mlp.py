# args: --emit cost --entry mlp --sizes B=32
# fathom cost, checked by hand (the numbers in tests/specialize/cost_mlp.ir):
#   x @ w1:       2 * B * 64 * 256 = 32768*B flops
#   relu:         B * 256          =   256*B
#   h @ w2:       2 * B * 256 * 10 =  5120*B
#   softmax:      5 * B * 10       =    50*B
#   flops total                    = 38194*B
#   bytes (f32, each input and output once):
#     x @ w1:   4*64*B + 4*64*256 + 4*256*B = 1280*B + 65536
#     relu:     4*256*B + 4*256*B          = 2048*B
#     h @ w2:   4*256*B + 4*256*10 + 4*10*B = 1064*B + 10240
#     softmax:  4*10*B + 4*10*B            =   80*B
#     bytes total                          = 4472*B + 75776
from __future__ import annotations
from fathom import *


def mlp(x: Tensor[f32, (B, 64)], w1: Tensor[f32, (64, 256)], w2: Tensor[f32, (256, 10)]):
    h = relu(x @ w1)
    return softmax(h @ w2)
