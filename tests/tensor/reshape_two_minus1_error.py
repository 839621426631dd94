# Only one -1; other negative dims are errors.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3)]):
    a = reshape(x, (-1, -1))  # expect-error: shape-mismatch
    b = reshape(x, (-2, 3))  # expect-error: shape-mismatch
    c = reshape(x, (2.0, 3))  # expect-error: type-mismatch
    return x
