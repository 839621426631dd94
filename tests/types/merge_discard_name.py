# The throwaway name `_` may be rebound to values of any type (as mypy and
# pyright allow): where paths or loop trips give it different types it
# becomes unknown, with no merge error; other variables still must agree.
from fathom import *


def rollout(n: int, x: Tensor[f32, (4, 3)]) -> Tensor[i64, (8,)]:
    a, logp, _, v = (0, 0.5, x, 1.0)
    idx = arange(8)
    for i in range(n):
        _, idx = topk(cast(random_uniform((8,)) * 8, i64), 8)
    reveal_type(_)  # expect-type: unknown
    return idx


def branch(c: bool) -> int:
    if c:
        _, k = (1, 2)
    else:
        _, k = ("skip", 3)
    reveal_type(_)  # expect-type: unknown
    reveal_type(k)  # expect-type: i64
    return k


def single(c: bool) -> int:
    _ = 0
    if c:
        _ = "unused"
    return 1


def still_checked(n: int) -> int:
    _ = 0
    other = 0
    for i in range(n):  # expect-error: type-mismatch
        _ = "a"
        other = "b"
    return 0
