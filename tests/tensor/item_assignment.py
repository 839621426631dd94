# x[idx] = v rebinds x to a new tensor of the same type (language.md 3): v
# must broadcast to the region x[idx] selects and fit x's dtype (a float
# into an integer tensor is a dtype-mismatch: the DSL does not truncate as
# numpy's setitem does).  The region is computed as for reading x[idx]:
# ints, slices with steps, None, `...`, boolean masks and integer arrays.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def positional(T: int, D: int):
    pe = zeros((T, D))
    pos = expand_dims(cast(arange(T), f32), 1)
    div = exp(cast(arange(0, D, 2), f32) * -0.5)
    pe[:, 0::2] = sin(pos * div)
    pe[:, 1::2] = cos(pos * div)[:, : D // 2]
    reveal_type(pe)  # expect-type: Tensor[f32, (?, ?)]
    return pe


def regions(x: Tensor[f32, (B, T, C)], m: Tensor[bool_, (B, T)], ids: Tensor[i64, (K,)],
            n: Tensor[i32, (N,)]):
    x[0] = 1.0
    x[~m] = 0.0
    x[m] = zeros((x.shape[2],))
    x[:, 0] = x[:, 1]
    x[..., None, 0] = 2
    x[:, ::2] = x[:, ::2] * 2.0
    x[ids] = x[0]
    x[:, -1, :] = ones((x.shape[0], 1))
    n[n > 0] = 0
    n[1:] = n[:-1]
    reveal_type(x)  # expect-type: Tensor[f32, (B, T, C)]
    reveal_type(n)  # expect-type: Tensor[i32, (N,)]
    return x


def masked(s: Tensor[f32, (B, T, T)]):
    keep = tril(ones((s.shape[1], s.shape[2]), dtype=bool_))
    s[:, ~keep] = float("-inf")
    reveal_type(s[:, keep])  # expect-type: Tensor[f32, (B, ?)]
    return softmax(s)


def bad_items(x: Tensor[f32, (B, T)], n: Tensor[i32, (4,)], m: Tensor[bool_, (B,)]):
    n[0] = 1.5  # expect-error: dtype-mismatch
    x[0] = zeros((x.shape[0],))  # expect-error: shape-mismatch
    x[m] = zeros((x.shape[0], x.shape[1], 2))  # expect-error: shape-mismatch
    n[5] = 1  # expect-error: index-out-of-range
    x[:, 0] = cast(x[:, 1], f64)  # expect-error: dtype-mismatch
    n[0] = 3
    return x
