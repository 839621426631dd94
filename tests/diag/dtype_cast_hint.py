# A dtype mismatch between integer and float tensors suggests casting the
# integer side to the float dtype (ids or counts meet float weights), on
# either side of the operator.  Two floats or two ints: cast the right side.
from __future__ import annotations
from fathom import *


def embed(ids: Tensor[i64, (B, 4)], w: Tensor[f32, (4, 8)], mask: Tensor[bool_, (B, 8)],
          h: Tensor[f16, (B, 8)], g: Tensor[f32, (B, 8)], n: Tensor[i32, (B, 4)]):
    a = ids @ w
    b = h * mask
    c = h + g
    d = ids - n
    return a, b, c, d
