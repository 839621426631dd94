# A list of tensors grown in a loop of unknown length has an unknown
# length: the concatenated dim is `?`; a literal's length is known.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def cat(x: Tensor[f32, (4, 3)], n: int):
    parts = [x]
    for i in range(n):
        parts.append(x * i)
    reveal_type(concat(parts))  # expect-type: Tensor[f32, (?, 3)]
    reveal_type(concat(parts, axis=1))  # expect-type: Tensor[f32, (4, ?)]
    reveal_type(stack(parts))  # expect-type: Tensor[f32, (?, 4, 3)]
    reveal_type(stack([x, x], axis=2))  # expect-type: Tensor[f32, (4, 3, 2)]
    return x
