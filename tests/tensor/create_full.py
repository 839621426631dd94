# full(shape, value, dtype=None): without a dtype the value decides.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def main():
    reveal_type(full((2, 2), 1.5))  # expect-type: Tensor[f32, (2, 2)]
    reveal_type(full((3,), 7))  # expect-type: Tensor[i64, (3,)]
    reveal_type(full((3,), True))  # expect-type: Tensor[bool_, (3,)]
    reveal_type(full((2, 1), 0, f64))  # expect-type: Tensor[f64, (2, 1)]
    reveal_type(full((2,), 1, dtype=i8))  # expect-type: Tensor[i8, (2,)]
    reveal_type(full((2,), fill_value=2.0))  # expect-type: Tensor[f32, (2,)]
    reveal_type(full((4,), zeros((), dtype=i16)))  # expect-type: Tensor[i16, (4,)]
    return 0
