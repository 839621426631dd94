# Inner dimensions that differ: the message names both dims, the operands
# and the lines they came from.
from __future__ import annotations
from fathom import *


def layer(x: Tensor[f32, (32, 128)],
          w: Tensor[f32, (64, 10)]):
    return x @ w  # expect-error: shape-mismatch


def vecs(a: Tensor[f32, (3,)], b: Tensor[f32, (4,)]):
    c = matmul(a, b)  # expect-error: shape-mismatch
    return a
