# More indices than dims is an error.  (Each line indexes another tensor:
# the same mistake on one value is one diagnostic, tests/diag/repeats.py.)
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3, 4)], s: Tensor[f32, ()], y: Tensor[f32, (3, 4)]):
    a = x[0, 0, 0]  # expect-error: index-out-of-range
    b = s[0]  # expect-error: index-out-of-range
    c = y[:, :, None, 1]  # expect-error: index-out-of-range
    return x
