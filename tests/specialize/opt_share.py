# args: --opt 1
# Clones shared across entries (docs/ir-json.md, "Normalisation"): each
# signature names its dims with its own symbols, so `norm` is specialized
# once over rows' B, once over pair's B and once over its N.  At --opt 1
# these are one graph, which keeps the dims of the first (B of rows); each
# call binds them to its arguments' dims.  fixed's clone, over the
# constant 4, stays a graph of its own.
from __future__ import annotations

from fathom import *


def norm(x):
    s = reduce_sum(x * x, axis=-1, keepdims=True)
    return x / sqrt(s + 1.0)


@jit
def rows(x: Tensor[f32, (B, 3)]):
    return norm(x) * 2.0


@jit
def pair(x: Tensor[f32, (B, 3)], y: Tensor[f32, (N, 3)]):
    return norm(x), norm(y)


@jit
def fixed(y: Tensor[f32, (4, 3)]):
    return norm(y)
