# argmax takes one axis, not a tuple.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)]):
    a = argmax(x, axis=(0, 1))  # expect-error: type-mismatch
    return x
