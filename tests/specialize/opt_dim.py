# args: --entry flatten --opt 1
# A shape's items read as dims (docs/ir-json.md, "Normalisation"): at
# --opt 1 `x.shape[0]` and `b, t, c = x.shape` are `dim(x, axis)` nodes
# of type i64 (the dims B and T); the constant dim 4 is a constant.
from __future__ import annotations

from fathom import *


def flatten(x: Tensor[f32, (B, T, 4)]):
    n = x.shape[0]
    b, t, c = x.shape
    return reshape(x, (n, t * c)), b * t
