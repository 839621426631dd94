# More indices than dims is an error.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], s: Tensor[f32, ()]):
    a = x[0, 0, 0]  # expect-error: index-out-of-range
    b = s[0]  # expect-error: index-out-of-range
    c = x[:, :, None, 1]  # expect-error: index-out-of-range
    return x
