# MindSpore test_cont_grad style: grad through while/for/if on tensors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def while_mul(x, y):
    i = 0
    out = x
    while i < 3:
        out = out * y
        i = i + 1
    return reduce_sum(out)


def if_by_if(x, y):
    if reduce_sum(x) > 0:
        x = x + y
    if reduce_sum(y) > 0:
        x = x * 2.0
    return mean(x * x)


def for_in_while(x, n):
    s = zeros(())
    k = 0
    while k < n:
        for j in range(2):
            s = s + reduce_sum(x) * j
        k += 1
    return s


def poly(x):
    acc = zeros_like(x)
    for c in (1.0, 2.0, 3.0):
        acc = acc * x + c
    return reduce_sum(acc)


@jit
def run(x: Tensor[f32, (N, 3)], y: Tensor[f32, (N, 3)], n: int):
    g1 = grad(while_mul)(x, y)  # expect-type: Tensor[f32, (N, 3)]
    g2 = grad(while_mul, argnums=(0, 1))(x, y)  # expect-type: tuple[Tensor[f32, (N, 3)], Tensor[f32, (N, 3)]]
    g3 = grad(if_by_if, 1)(x, y)  # expect-type: Tensor[f32, (N, 3)]
    g4 = grad(for_in_while)(x, n)  # expect-type: Tensor[f32, (N, 3)]
    v, g5 = value_and_grad(poly)(x)
    reveal_type(v)  # expect-type: Tensor[f32, ()]
    reveal_type(g5)  # expect-type: Tensor[f32, (N, 3)]
    return g1, g2, g3, g4, g5
