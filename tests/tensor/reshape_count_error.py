# Element counts that are both known must agree; a -1 must divide evenly.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3)]):
    a = reshape(x, (4, 2))  # expect-error: shape-mismatch
    b = reshape(x, (4, -1))  # expect-error: shape-mismatch
    c = x.reshape(7)  # expect-error: shape-mismatch
    return x
