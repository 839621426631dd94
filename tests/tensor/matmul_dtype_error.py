# matmul needs one dtype.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def bad(a: Tensor[f32, (2, 3)], b: Tensor[f16, (3, 4)]):
    c = a @ b  # expect-error: dtype-mismatch
    reveal_type(a @ cast(b, f32))  # expect-type: Tensor[f32, (2, 4)]
    return a
