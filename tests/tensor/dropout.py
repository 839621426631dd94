# dropout keeps shape and dtype.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def drop(x: Tensor[f32, (B, D)], h: Tensor[f16, (3,)]):
    reveal_type(dropout(x, 0.1))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(dropout(h))  # expect-type: Tensor[f16, (3,)]
    reveal_type(dropout(x, p=0.5, training=False))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(x.dropout(0.2))  # expect-type: Tensor[f32, (B, D)]
    return x
