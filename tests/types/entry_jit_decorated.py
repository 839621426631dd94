# @jit marks an entry point; unannotated parameters of an entry are unknown.
from fathom import *
from typing import reveal_type


@jit
def step(x, n: int):
    reveal_type(x)  # expect-type: unknown
    reveal_type(n)  # expect-type: i64
    reveal_type(n + 1)  # expect-type: i64
    return n * 2


@jit
def scale(v: float, k: int) -> float:
    r = v * k  # expect-type: f64
    return r
