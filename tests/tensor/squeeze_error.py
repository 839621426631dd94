# squeeze of an axis whose size is not 1 is an error (numpy's ValueError).
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (1, 3)]):
    a = squeeze(x, 1)  # expect-error: shape-mismatch
    b = squeeze(x, 2)  # expect-error: index-out-of-range
    return x
