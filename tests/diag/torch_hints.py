# PyTorch habits get a hint naming the DSL's form (numpy's meanings).
from __future__ import annotations
from fathom import *


def last_dim(x: Tensor[f32, (B, T, 192)]):
    return x.size(-1)


def heads(x: Tensor[f32, (B, T, 192)]):
    q, k, v = split(x, 64, 2)
    return q


def heads_uneven(x: Tensor[f32, (B, T, 192)]):
    return x.split(5, axis=2)


def swap(x: Tensor[f32, (B, T, 192)]):
    return transpose(x, 1, 2)


def torch_methods(x: Tensor[f32, (B, T, 192)], ids: Tensor[i64, (B, T)]):
    a = x.view(-1, 192)
    b = x.permute(0, 2, 1)
    c = x.unsqueeze(1)
    d = ids.float()
    e = x.reshape(-1, 192).t()
    return a, b, c, d, e


def torch_keywords(x: Tensor[f32, (B, T, 192)]):
    p = softmax(x, dim=-1)
    m = x.mean(-1, keepdim=True)
    return p, m
