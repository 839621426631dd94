# Called from elsewhere, a function's annotation symbols are bound by its
# arguments: returning (3, 5) for (B, H) = (3, 5) passes, (5, 3) fails.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def good(x, w) -> Tensor[f32, (B, H)]:
    return x @ w


def swapped(x: Tensor[f32, (B, D)], w) -> Tensor[f32, (B, D)]:  # expect-error: return-annotation
    return (x @ w).T


def main():
    reveal_type(good(ones((3, 4)), ones((4, 5))))  # expect-type: Tensor[f32, (3, 5)]
    reveal_type(swapped(ones((5, 3)), ones((3, 5))))  # expect-type: Tensor[f32, (5, 5)]
    return 0
