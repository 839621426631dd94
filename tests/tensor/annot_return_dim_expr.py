# Return annotations whose dims are expressions of the parameters' symbols
# (16*C, T+1, D//2) are checked after binding the symbols, like bare names.
from __future__ import annotations
from fathom import *


def flat(x: Tensor[f32, (B, C, 4, 4)]) -> Tensor[f32, (B, 16*C)]:
    return reshape(x, (x.shape[0], -1))


def with_bos(x: Tensor[f32, (B, T, D)]) -> Tensor[f32, (B, T+1, D)]:
    return concat((zeros((x.shape[0], 1, x.shape[2])), x), axis=1)


def first_half(x: Tensor[f32, (B, D)]) -> Tensor[f32, (B, D//2)]:
    return x[:, :x.shape[1] // 2]


def pair(x: Tensor[f32, (N, K)]) -> tuple[Tensor[f32, (2*N, K)], Tensor[f32, (N, 2*K)]]:
    return concat((x, x), axis=0), concat((x, x), axis=1)


def free_symbol(x: Tensor[f32, (N,)]) -> Tensor[f32, (2*M,)]:
    return concat((x, x), axis=0)


def wrong_factor(x: Tensor[f32, (B, C, 4, 4)]) -> Tensor[f32, (B, 8*C)]:  # expect-error: return-annotation
    return reshape(x, (x.shape[0], -1))
