# .T reverses the dims.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def t(x: Tensor[f32, (B, D)], v: Tensor[f32, (D,)], s: Tensor[f32, ()], w: Tensor[f32, (2, 3, 4)]):
    reveal_type(x.T)  # expect-type: Tensor[f32, (D, B)]
    reveal_type(x.T.T)  # expect-type: Tensor[f32, (B, D)]
    reveal_type(v.T)  # expect-type: Tensor[f32, (D,)]
    reveal_type(s.T)  # expect-type: Tensor[f32, ()]
    reveal_type(w.T)  # expect-type: Tensor[f32, (4, 3, 2)]
    reveal_type(x @ x.T)  # expect-type: Tensor[f32, (B, B)]
    return x
