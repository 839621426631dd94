# numpy's 1-d rules: a 1-d left operand loses its row dim, a 1-d right
# operand its column dim; two vectors give a 0-d tensor.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def vec(m: Tensor[f32, (3, 4)], v: Tensor[f32, (4,)], u: Tensor[f32, (3,)], b: Tensor[f32, (5, 4, 2)]):
    reveal_type(m @ v)  # expect-type: Tensor[f32, (3,)]
    reveal_type(u @ m)  # expect-type: Tensor[f32, (4,)]
    reveal_type(v @ v)  # expect-type: Tensor[f32, ()]
    reveal_type(v @ b)  # expect-type: Tensor[f32, (5, 2)]
    reveal_type(transpose(b, (0, 2, 1)) @ v)  # expect-type: Tensor[f32, (5, 2)]
    return m


def bad(v: Tensor[f32, (4,)], b: Tensor[f32, (5, 4, 2)]):
    w = b.T @ v  # expect-error: shape-mismatch
    return v
