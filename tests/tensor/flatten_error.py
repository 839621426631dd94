# flatten's start and end are axes, start not after end.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3, 4)]):
    a = flatten(x, 2, 1)  # expect-error: type-mismatch
    b = flatten(x, 3)  # expect-error: index-out-of-range
    c = flatten(x, 0, -4)  # expect-error: index-out-of-range
    return x
