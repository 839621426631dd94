# The axis of expand_dims lies in [-(rank+1), rank].
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (2, 3)]):
    a = expand_dims(x, 3)  # expect-error: index-out-of-range
    b = expand_dims(x, -4)  # expect-error: index-out-of-range
    c = expand_dims(x)  # expect-error: arity
    return x
