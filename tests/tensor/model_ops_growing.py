# Ops whose dims grow or split (language.md 6, "added for real model
# code"): tile, repeat_interleave and pad (dim arithmetic 2*T, T+2), topk
# (k against the dim), chunk (torch's parts: ceil(d/n), the last smaller),
# avg_pool2d, max_pool2d's padding and conv2d's bias.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def grow(x: Tensor[f32, (B, T, D)], v: Tensor[i32, (N,)]):
    reveal_type(tile(x, (2, 1, 3)))  # expect-type: Tensor[f32, (2*B, T, 3*D)]
    reveal_type(tile(v, (2, 2)))  # expect-type: Tensor[i32, (2, 2*N)]
    reveal_type(tile(x, 2))  # expect-type: Tensor[f32, (B, T, 2*D)]
    reveal_type(repeat_interleave(x, 2, axis=1))  # expect-type: Tensor[f32, (B, 2*T, D)]
    reveal_type(repeat_interleave(v, 3))  # expect-type: Tensor[i32, (3*N,)]
    reveal_type(x.repeat_interleave(x.shape[0], axis=2))  # expect-type: Tensor[f32, (B, T, B*D)]
    reveal_type(pad(x, ((0, 0), (1, 1), (0, 2))))  # expect-type: Tensor[f32, (B, T+2, D+2)]
    reveal_type(pad(v, (2, 1), value=-1))  # expect-type: Tensor[i32, (N+3,)]
    reveal_type(pad(x, 1))  # expect-type: Tensor[f32, (B+2, T+2, D+2)]
    return pad(x, ((0, 0), (1, 0), (0, 0)))


def select(x: Tensor[f32, (B, T, 12)], s: Tensor[f32, (B, 5)]):
    vals, idx = topk(s, 3)
    reveal_type(vals)  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(idx)  # expect-type: Tensor[i64, (B, 3)]
    reveal_type(topk(x, x.shape[1], axis=1))  # expect-type: tuple[Tensor[f32, (B, T, 12)], Tensor[i64, (B, T, 12)]]
    q, k, v = chunk(x, 3, axis=2)
    reveal_type(q)  # expect-type: Tensor[f32, (B, T, 4)]
    reveal_type(chunk(s, 2, 1))  # expect-type: tuple[Tensor[f32, (B, 3)], Tensor[f32, (B, 2)]]
    reveal_type(chunk(s, 4, 1))  # expect-type: tuple[Tensor[f32, (B, 2)], Tensor[f32, (B, 2)], Tensor[f32, (B, 1)]]
    reveal_type(x.chunk(2, axis=-1))  # expect-type: tuple[Tensor[f32, (B, T, 6)], Tensor[f32, (B, T, 6)]]
    return q + k + v


def pool(im: Tensor[f32, (N, 3, 32, 32)], w: Tensor[f32, (8, 3, 3, 3)], b: Tensor[f32, (8,)],
         i: Tensor[i32, (2, 6, 6)]):
    h = conv2d(im, w, padding=1, bias=b)
    reveal_type(h)  # expect-type: Tensor[f32, (N, 8, 32, 32)]
    reveal_type(avg_pool2d(h, 2))  # expect-type: Tensor[f32, (N, 8, 16, 16)]
    reveal_type(max_pool2d(h, 3, 2, padding=1))  # expect-type: Tensor[f32, (N, 8, 16, 16)]
    reveal_type(avg_pool2d(i, 3, stride=1, padding=1))  # expect-type: Tensor[f32, (2, 6, 6)]
    return avg_pool2d(h, 2)


def bad_growing(x: Tensor[f32, (B, 5)], w: Tensor[f32, (8, 3, 3, 3)], im: Tensor[f32, (1, 3, 8, 8)]):
    a = topk(x, 6)  # expect-error: index-out-of-range
    b = pad(x, ((1, 1),) * 3)  # expect-error: shape-mismatch
    c = pad(x, -1)  # expect-error: shape-mismatch
    d = pad(x, 1, value=0.5)
    e = chunk(x, 0, 1)  # expect-error: shape-mismatch
    f = conv2d(im, w, bias=zeros((3,)))  # expect-error: shape-mismatch
    g = repeat_interleave(x, -2, axis=1)  # expect-error: shape-mismatch
    h = tile(x, 1.5)  # expect-error: type-mismatch
    k = chunk(x, 2, axis=2)  # expect-error: index-out-of-range
    return x
