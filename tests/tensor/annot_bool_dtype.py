# `bool` in a Tensor annotation is the dtype bool_ (Tensor[bool, ...] means
# that at run time too), so a mask annotated either way has one type.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def count(mask: Tensor[bool, (N, 4)]) -> Tensor[i64, (N,)]:
    reveal_type(mask)  # expect-type: Tensor[bool_, (N, 4)]
    return reduce_sum(cast(mask, i64), 1)


def masked(x: Tensor[f32, (N, 4)], mask: Tensor[bool_, (N, 4)]) -> Tensor[f32, (N, 4)]:
    return where(mask, x, 0.0)


def wrong(mask: Tensor[bool, (N,)]) -> Tensor[f32, (N,)]:  # expect-error: return-annotation
    return mask
