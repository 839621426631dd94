# clip(x, lo, hi): bounds are numbers, tensors or None (not both None).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def clamp(x: Tensor[f32, (B, 3)], i: Tensor[i32, (3,)], lo: Tensor[f32, (3,)]):
    reveal_type(clip(x, 0.0, 1.0))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(clip(x, None, 6))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(clip(i, 0, 10))  # expect-type: Tensor[i32, (3,)]
    reveal_type(clip(i, 0.5, 2))  # expect-type: Tensor[f32, (3,)]
    reveal_type(clip(lo, x, None))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(x.clip(-1, 1))  # expect-type: Tensor[f32, (B, 3)]
    reveal_type(clip(x, min=0.0, max=None))  # expect-type: Tensor[f32, (B, 3)]
    return x
