# Batch dims broadcast.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def batched(q: Tensor[f32, (B, H, T, D)], k: Tensor[f32, (B, H, T, D)], w: Tensor[f32, (D, E)],
            one: Tensor[f32, (1, H, D, 3)]):
    reveal_type(q @ transpose(k, (0, 1, 3, 2)))  # expect-type: Tensor[f32, (B, H, T, T)]
    reveal_type(q @ w)  # expect-type: Tensor[f32, (B, H, T, E)]
    reveal_type(q @ one)  # expect-type: Tensor[f32, (B, H, T, 3)]
    reveal_type(ones((7, 1, 2, 3)) @ ones((5, 3, 4)))  # expect-type: Tensor[f32, (7, 5, 2, 4)]
    return q
