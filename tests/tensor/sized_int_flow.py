# Sized ints (a dim read as an int) through helpers, loops, recursion and
# an assert that unifies two symbols.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def causal_mask(t):
    return ones((t, t))


def attend(x: Tensor[f32, (B, T, D)]):
    t = x.shape[1]
    scores = x @ transpose(x, (0, 2, 1))
    reveal_type(scores + causal_mask(t))  # expect-type: Tensor[f32, (B, T, T)]
    return scores + causal_mask(x.shape[2])  # expect-error: shape-mismatch


def pad_to(x: Tensor[f32, (N,)], y: Tensor[f32, (M,)]):
    n = x.shape[0]
    assert x.shape[0] == y.shape[0]
    z = zeros((n,))
    reveal_type(y + z)  # expect-type: Tensor[f32, (N,)]
    return y + z


def countdown(x: Tensor[f32, (N, 3)]):
    n = x.shape[0]
    total = 0
    while n > 0:
        total = total + n
        n = n - 1
    reveal_type(n)  # expect-type: i64
    return total


def halve(n):
    if n <= 1:
        return n
    return halve(n // 2)


def depth(x: Tensor[f32, (N,)]):
    reveal_type(halve(x.shape[0]))  # expect-type: i64
    return halve(len(x))
