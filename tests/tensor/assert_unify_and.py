# `assert a == b and c == d` refines both equalities on the path after it:
# the condition tests each operand, and each test refines what follows.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def affine(x: Tensor[f32, (N, K)], w: Tensor[f32, (M, P)], b: Tensor[f32, (Q,)]):
    assert x.shape[1] == w.shape[0] and w.shape[1] == b.shape[0]
    y = x @ w + b
    reveal_type(y)  # expect-type: Tensor[f32, (N, P)]
    return y


def either(x: Tensor[f32, (N, K)], w: Tensor[f32, (M, P)]):
    if x.shape[1] != w.shape[0] or x.shape[0] != w.shape[1]:
        return x
    return x @ w @ x
