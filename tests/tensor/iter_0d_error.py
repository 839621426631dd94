# A 0-d tensor cannot be iterated or unpacked; the item count must match.
from __future__ import annotations
from fathom import *


def bad(s: Tensor[f32, ()], x: Tensor[f32, (3, 2)]):
    for v in s:  # expect-error: type-mismatch
        pass
    a, b = x  # expect-error: arity
    return s
