# True division of integer (or bool) tensors gives f32; floats keep theirs.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def div(i: Tensor[i32, (4,)], j: Tensor[i32, (4,)], f: Tensor[f64, (4,)], m: Tensor[bool_, (4,)]):
    reveal_type(i / j)  # expect-type: Tensor[f32, (4,)]
    reveal_type(i / 2)  # expect-type: Tensor[f32, (4,)]
    reveal_type(f / 2)  # expect-type: Tensor[f64, (4,)]
    reveal_type(m / m)  # expect-type: Tensor[f32, (4,)]
    reveal_type(i // j)  # expect-type: Tensor[i32, (4,)]
    reveal_type(i % 3)  # expect-type: Tensor[i32, (4,)]
    reveal_type(f // 2.0)  # expect-type: Tensor[f64, (4,)]
    return i
