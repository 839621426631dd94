# A small CNN: two conv2d + relu + max_pool2d stages, flatten, linear.
from __future__ import annotations

from fathom import *


@jit
def cnn(x: Tensor[f32, (B, 1, 28, 28)], w1: Tensor[f32, (8, 1, 3, 3)],
        w2: Tensor[f32, (16, 8, 3, 3)], wf: Tensor[f32, (10, 576)], bf: Tensor[f32, (10,)]):
    h = max_pool2d(relu(conv2d(x, w1, stride=1, padding=1)), 2, 2)   # (B, 8, 14, 14)
    h = max_pool2d(relu(conv2d(h, w2)), 2)                           # (B, 16, 6, 6)
    h = flatten(h, 1)                                                # (B, 576)
    return log_softmax(linear(h, wf, bf))


def strided(x: Tensor[f32, (B, 3, 17, 17)], w: Tensor[f32, (4, 3, 5, 5)]):
    return conv2d(x, w, stride=2, padding=2), conv2d(x, w, (3, 1), (0, 1))


if __name__ == "__main__":
    out = cnn(random_normal((2, 1, 28, 28)), random_normal((8, 1, 3, 3)),
              random_normal((16, 8, 3, 3)), random_normal((10, 576)) * 0.05, zeros((10,)))
    assert out.shape == (2, 10) and out.dtype == f32
    a, b = strided(random_normal((1, 3, 17, 17)), random_normal((4, 3, 5, 5)))
    assert a.shape == (1, 4, 9, 9), a.shape
    assert b.shape == (1, 4, 5, 15), b.shape
    print("cnn ok")
