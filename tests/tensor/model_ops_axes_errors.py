# Misuses of the torch-style permutations: each reports its kind at its line.
from __future__ import annotations
from fathom import *


def bad_axes(x: Tensor[f32, (B, T, C)], v: Tensor[f32, (N,)]):
    a = permute(x, 0, 1)  # expect-error: shape-mismatch
    b = permute(x, 0, 0, 1)  # expect-error: type-mismatch
    c = swapaxes(x, 0, 3)  # expect-error: index-out-of-range
    d = x.transpose(1, 5)  # expect-error: index-out-of-range
    e = v.mT  # expect-error: shape-mismatch
    f = transpose(x, 1, 2)  # expect-error: shape-mismatch
    g = permute(x)  # expect-error: arity
    return x
