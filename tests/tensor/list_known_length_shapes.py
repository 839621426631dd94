# A list of known length keeps each item's shape (language.md 5): the
# projections of `q, k, v = [f(x) for f in fs]` stay apart, a list of
# layer sizes built as a literal gives exact weight shapes, and blocks
# appended in a loop over a constant range keep theirs.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def project(x: Tensor[f32, (B, 8)]):
    wq = zeros((8, 4), f32)
    wk = zeros((8, 2), f32)
    wv = zeros((8, 3), f32)
    q, k, v = [x @ w for w in [wq, wk, wv]]
    reveal_type(q)  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(v)  # expect-type: Tensor[f32, (B, 3)]
    return q, k, v


def weights():
    sizes = [6, 5, 3]
    ws = [zeros((m, n), f32) for m, n in zip(sizes[:-1], sizes[1:])]
    reveal_type(ws)  # expect-type: list[Tensor[f32, (6, 5)], Tensor[f32, (5, 3)]]
    reveal_type(ws[-1])  # expect-type: Tensor[f32, (5, 3)]
    return ws


def blocks(x: Tensor[f32, (2, 3)]):
    out = []
    for i in range(3):
        out.append(zeros((i + 1, 3), f32))
    reveal_type(out[2])  # expect-type: Tensor[f32, (3, 3)]
    bad = out[1] + out[2]  # expect-error: shape-mismatch
    return x + out[1]


def main():
    weights()
    blocks(zeros((2, 3), f32))
    return 0
