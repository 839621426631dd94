# x[idx] op= v is x[idx] = x[idx] op v (language.md 3), with x and idx
# evaluated once: the region x[idx] selects meets v as in `x[idx] op v`,
# and the result goes back under the rules of item assignment (same
# dtype, broadcast to the region).  Lists too (an item of a local list).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def counters(x: Tensor[f32, (3,)], h: Tensor[f32, (B, T, C)]):
    x[2] -= 1
    x[0] += x[1]
    x[:2] *= 2.0
    h[:, 0] += h[:, -1]
    h[..., 1::2] /= 2.0
    reveal_type(x)  # expect-type: Tensor[f32, (3,)]
    reveal_type(h)  # expect-type: Tensor[f32, (B, T, C)]
    return x, h


def lists():
    xs = [1, 2, 3]
    xs[0] += 10
    xs[-1] *= 2
    reveal_type(xs)  # expect-type: list[i64=11, i64=2, i64=6]
    return xs


def bad(n: Tensor[i32, (4,)], x: Tensor[f32, (B, T)]):
    n[0] += 1.5  # expect-error: dtype-mismatch
    x[0] += zeros((x.shape[1] + 1,))  # expect-error: shape-mismatch
    n[7] -= 1  # expect-error: index-out-of-range
    t = (1, 2)
    t[0] += 1  # expect-error: type-mismatch
    return n, x, t
