# Layer stacks built in loops: widths from a constant tuple (unrolled trips),
# weights iterated from a tuple, and a shape that changes on the second trip.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def second_trip(x: Tensor[f32, (4, 4)], w: Tensor[f32, (4, 8)]):
    h = x
    for i in range(3):
        h = h @ w  # expect-error: shape-mismatch
    return h


def stacked_layers(x: Tensor[f32, (B, 16)]):
    sizes = (16, 32, 32, 10)
    h = x
    for i in range(len(sizes) - 1):
        w = ones((sizes[i + 1], sizes[i]))
        h = relu(linear(h, w))
    reveal_type(h)  # expect-type: Tensor[f32, (B, 10)]
    return h


def stacked_layers_transposed(x: Tensor[f32, (B, 16)]):
    sizes = (16, 32, 32, 10)
    h = x
    for i in range(len(sizes) - 1):
        w = ones((sizes[i], sizes[i + 1]))
        h = relu(linear(h, w))  # expect-error: shape-mismatch
    return h


def layers_from_tuple(x: Tensor[f32, (B, 16)],
                      ws: tuple[Tensor[f32, (32, 16)], Tensor[f32, (8, 32)], Tensor[f32, (4, 8)]]):
    h = x
    for w in ws:
        h = linear(h, w)
    reveal_type(h)  # expect-type: Tensor[f32, (B, 4)]
    return h


def residual_stack(x: Tensor[f32, (B, T, 8)], n: int):
    h = x
    for _ in range(n):
        h = h + gelu(h @ ones((8, 8)))
    reveal_type(h)  # expect-type: Tensor[f32, (B, T, 8)]
    return h
