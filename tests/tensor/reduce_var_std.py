# var/std take ddof; mean/var/std of integers are f32.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def spread(x: Tensor[f64, (N, 3)], i: Tensor[i16, (N,)]):
    reveal_type(var(x, axis=0, ddof=1))  # expect-type: Tensor[f64, (3,)]
    reveal_type(std(x, 1))  # expect-type: Tensor[f64, (N,)]
    reveal_type(std(i))  # expect-type: Tensor[f32, ()]
    reveal_type(x.var(keepdims=True))  # expect-type: Tensor[f64, (1, 1)]
    reveal_type(x.std(axis=-1, ddof=0))  # expect-type: Tensor[f64, (N,)]
    return x
