# Tensors carried through loops: shapes that stay, shapes that change, lists of tensors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def power_iteration(a, steps):
    v = ones((a.shape[1],))
    for _ in range(steps):
        v = a @ v
        v = v / sqrt(reduce_sum(v * v))
    return v


def grow(x, n):
    out = x
    for _ in range(n):
        out = concat((out, x), axis=0)
    return out


def cumulative(xs):
    outs = []
    total = zeros_like(xs[0])
    for row in xs:
        total = total + row
        outs.append(total)
    return stack(outs, axis=0)


def halve_until_small(x):
    while x.shape[0] > 2:
        x = x[::2]
    return x


@jit
def run(a: Tensor[f32, (N, N)], x: Tensor[f32, (4, D)], xs: Tensor[f32, (T, D)], steps: int):
    v = power_iteration(a, steps)  # expect-type: Tensor[f32, (N,)]
    g = grow(x, 2)  # expect-type: Tensor[f32, (12, D)]
    h = grow(x, steps)  # expect-type: Tensor[f32, (?, D)]
    c = cumulative(xs)  # expect-type: Tensor[f32, (?, D)]
    s = halve_until_small(zeros((16, 3)))  # expect-type: Tensor[f32, (2, 3)]
    return v, g, h, c, s
