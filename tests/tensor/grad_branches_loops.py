# f may branch and loop: the analysis of the call decides its value.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def loss(w: Tensor[f32, (4,)], n: int, flag: bool):
    total = zeros(())
    for i in range(n):
        total = total + reduce_sum(w * w)
    if flag:
        return total
    return mean(w)


def run(w: Tensor[f32, (4,)], n: int, flag: bool):
    reveal_type(grad(loss)(w, n, flag))  # expect-type: Tensor[f32, (4,)]
    reveal_type(value_and_grad(loss)(w, 3, True)[0])  # expect-type: Tensor[f32, ()]
    return w
