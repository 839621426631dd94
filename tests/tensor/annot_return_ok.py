# A result whose dims are the annotation's symbols passes the return check.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def mlp(x: Tensor[f32, (B, D)], w: Tensor[f32, (D, H)]) -> Tensor[f32, (B, H)]:
    return relu(x @ w)


def pool(x: Tensor[f32, (B, T, D)]) -> Tensor[f32, (B, D)]:
    return mean(x, axis=1)


def anything(x: Tensor[f32, (B, D)]) -> Tensor[f32, (None, D)]:
    return x


def fresh(x: Tensor[f32, (B, 3)]) -> Tensor[f32, (K, K)]:
    return ones((4, 4))


def pair(x: Tensor[f32, (N,)]) -> tuple[Tensor[f32, (N,)], int]:
    return x * 2, len(x)


def unknown_dims(x: Tensor[f32, (N, 4)], k: int) -> Tensor[f32, (N, 4)]:
    return x[:k] if k > 100 else x


def main():
    reveal_type(mlp(ones((2, 3)), ones((3, 5))))  # expect-type: Tensor[f32, (2, 5)]
    return 0
