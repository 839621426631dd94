# reshape to a tuple of ints with the same element count.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def rs(x: Tensor[f32, (2, 3, 4)]):
    reveal_type(reshape(x, (6, 4)))  # expect-type: Tensor[f32, (6, 4)]
    reveal_type(reshape(x, (24,)))  # expect-type: Tensor[f32, (24,)]
    reveal_type(reshape(x, 24))  # expect-type: Tensor[f32, (24,)]
    reveal_type(reshape(x, (2, 3, 2, 2)))  # expect-type: Tensor[f32, (2, 3, 2, 2)]
    reveal_type(reshape(ones((1,)), ()))  # expect-type: Tensor[f32, ()]
    reveal_type(reshape(x, newshape=(4, 6)))  # expect-type: Tensor[f32, (4, 6)]
    return x
