# The same refinement holds in the true branch of an if (and the false
# branch of !=); the other branch keeps the symbols apart.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def pick(x: Tensor[f32, (N,)], y: Tensor[f32, (M,)]):
    if x.shape[0] == y.shape[0]:
        reveal_type(x + y)  # expect-type: Tensor[f32, (N,)]
        r = x + y
    else:
        reveal_type(y)  # expect-type: Tensor[f32, (M,)]
        r = concat((x, y))
    reveal_type(r)  # expect-type: Tensor[f32, (?,)]
    if len(x) != len(y):
        return x
    reveal_type(y)  # expect-type: Tensor[f32, (N,)]
    return x - y
