# squeeze drops dims of size 1: the given ones, or all when axis is None.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def sq(x: Tensor[f32, (1, 3, 1)], y: Tensor[f32, (B, 1)], z: Tensor[f32, (B, 4)]):
    reveal_type(squeeze(x))  # expect-type: Tensor[f32, (3,)]
    reveal_type(squeeze(x, 0))  # expect-type: Tensor[f32, (3, 1)]
    reveal_type(squeeze(x, axis=-1))  # expect-type: Tensor[f32, (1, 3)]
    reveal_type(squeeze(x, (0, 2)))  # expect-type: Tensor[f32, (3,)]
    reveal_type(squeeze(y, 1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(y.squeeze(-1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(squeeze(y))  # expect-type: Tensor[f32, ...]
    reveal_type(squeeze(z, 0))  # expect-type: Tensor[f32, (4,)]
    return x
