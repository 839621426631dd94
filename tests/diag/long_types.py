# Long types are abbreviated in messages: a run of equal items prints once
# with its count, a long tuple stops with "... (N more)".  (`fathom infer`
# and hover print them in full.)
from __future__ import annotations
from fathom import *


def stack_steps(x: Tensor[f32, (B, 64)], c: bool):
    h = ()
    for i in range(40):
        h = h + (x,)
    if c:
        y = h
    else:
        y = 1
    return y


def mixed(x: Tensor[f32, (B, 64)], n: int, s: str):
    t = (x, n, s, x, n, s, x, n, s, x, n, s, x, n, s, x, n, s, x, n, s, x, n, s)
    return t + 1
