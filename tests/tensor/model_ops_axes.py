# The torch names for permutations (language.md 6, "added for real model
# code"): permute, swapaxes, x.transpose(a, b) (a swap unless x is 2-d),
# x.mT and x.view.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def axes(x: Tensor[f32, (B, T, C)], w: Tensor[i32, (N, M)]):
    reveal_type(permute(x, 0, 2, 1))  # expect-type: Tensor[f32, (B, C, T)]
    reveal_type(permute(x, (2, 0, 1)))  # expect-type: Tensor[f32, (C, B, T)]
    reveal_type(x.permute(1, 0, 2))  # expect-type: Tensor[f32, (T, B, C)]
    reveal_type(swapaxes(x, 0, -1))  # expect-type: Tensor[f32, (C, T, B)]
    reveal_type(x.swapaxes(1, 2))  # expect-type: Tensor[f32, (B, C, T)]
    reveal_type(x.transpose(1, 2))  # expect-type: Tensor[f32, (B, C, T)]
    reveal_type(x.transpose(-1, 0))  # expect-type: Tensor[f32, (C, T, B)]
    reveal_type(x.transpose(2, 1, 0))  # expect-type: Tensor[f32, (C, T, B)]
    reveal_type(w.transpose(1, 0))  # expect-type: Tensor[i32, (M, N)]
    reveal_type(w.transpose(0, 1))  # expect-type: Tensor[i32, (N, M)]
    reveal_type(x.mT)  # expect-type: Tensor[f32, (B, C, T)]
    reveal_type(w.mT)  # expect-type: Tensor[i32, (M, N)]
    reveal_type(x.view(x.shape[0], -1))  # expect-type: Tensor[f32, (B, T*C)]
    reveal_type(x.view(-1))  # expect-type: Tensor[f32, (B*T*C,)]
    return x.transpose(1, 2) @ x


def heads(x: Tensor[f32, (B, T, 64)]):
    q = x.view(x.shape[0], x.shape[1], 4, 16).transpose(1, 2)
    reveal_type(q)  # expect-type: Tensor[f32, (B, 4, T, 16)]
    att = q @ q.transpose(-2, -1)
    reveal_type(att)  # expect-type: Tensor[f32, (B, 4, T, T)]
    y = (att @ q).transpose(1, 2).reshape(x.shape[0], x.shape[1], 64)
    reveal_type(y)  # expect-type: Tensor[f32, (B, T, 64)]
    return y
