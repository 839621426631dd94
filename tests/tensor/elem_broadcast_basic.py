# numpy broadcasting: shapes align from the right, 1 stretches.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def bc(a: Tensor[f32, (3, 1)], b: Tensor[f32, (1, 4)], c: Tensor[f32, (4,)], d: Tensor[f32, ()]):
    reveal_type(a + b)  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(a * c)  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(c - d)  # expect-type: Tensor[f32, (4,)]
    reveal_type(d * d)  # expect-type: Tensor[f32, ()]
    reveal_type(b / c)  # expect-type: Tensor[f32, (1, 4)]
    reveal_type(a + 1)  # expect-type: Tensor[f32, (3, 1)]
    reveal_type(2.0 * c)  # expect-type: Tensor[f32, (4,)]
    reveal_type(a - b + c)  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(ones((2, 1, 5)) + zeros((7, 1)))  # expect-type: Tensor[f32, (2, 7, 5)]
    return a
