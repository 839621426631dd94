# A result dim that is another symbol than the annotation's fails.
from __future__ import annotations
from fathom import *


def swap(x: Tensor[f32, (B, T)]) -> Tensor[f32, (B, T)]:  # expect-error: return-annotation
    return x.T


def other(x: Tensor[f32, (N,)], y: Tensor[f32, (M,)]) -> Tensor[f32, (M,)]:  # expect-error: return-annotation
    return x


def twice(x: Tensor[f32, (B, 3)]) -> Tensor[f32, (K, K)]:  # expect-error: return-annotation
    return ones((2, 5))
