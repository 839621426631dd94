# A dim read as an int (x.shape[0], len(x), x.size) is a sized int: it
# prints as i64, and it carries its dim into the functions it is passed
# to.  Contexts are keyed by it, so two callers passing different symbols
# get two contexts, each with its own symbol.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def make(n):
    return zeros((n, 2))


def outer(x: Tensor[f32, (N, 4)], y: Tensor[f32, (M, 4)]):
    reveal_type(make(x.shape[0]))  # expect-type: Tensor[f32, (N, 2)]
    reveal_type(make(y.shape[0]))  # expect-type: Tensor[f32, (M, 2)]
    reveal_type(make(3))  # expect-type: Tensor[f32, (3, 2)]
    reveal_type(make(len(x) * 2 + 1))  # expect-type: Tensor[f32, (2*N+1, 2)]
    reveal_type(x.shape[0])  # expect-type: i64
    return x
