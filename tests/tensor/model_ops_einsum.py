# einsum(spec, *xs) (language.md 6): the result's dims come from the
# subscripts; a letter repeated across operands names one dim, so its axes
# must agree (a shape-mismatch names both); an explicit "->" is required
# and "..." is not supported.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def contract(q: Tensor[f32, (B, H, T, D)], k: Tensor[f32, (B, H, S, D)], w: Tensor[f32, (D, E)]):
    att = einsum("bhtd,bhsd->bhts", q, k)
    reveal_type(att)  # expect-type: Tensor[f32, (B, H, T, S)]
    reveal_type(einsum("bhtd,de->bhte", q, w))  # expect-type: Tensor[f32, (B, H, T, E)]
    reveal_type(einsum("de->ed", w))  # expect-type: Tensor[f32, (E, D)]
    reveal_type(einsum("bhtd->", q))  # expect-type: Tensor[f32, ()]
    reveal_type(einsum("ij,j->i", w, w[0]))  # expect-type: Tensor[f32, (D,)]
    return att


def bad_einsum(q: Tensor[f32, (B, T, D)], k: Tensor[f32, (B, T, E)], h: Tensor[f16, (B, T, D)]):
    a = einsum("btd,bsd->bts", q, k)  # expect-error: shape-mismatch
    b = einsum("btd,bsd", q, q)  # expect-error: type-mismatch
    c = einsum("bt,bsd->bts", q, q)  # expect-error: shape-mismatch
    d = einsum("...d,bsd->bs", q, q)  # expect-error: type-mismatch
    e = einsum("btd,bsd->btx", q, q)  # expect-error: type-mismatch
    f = einsum("btd,bsd->bts", q, h)  # expect-error: dtype-mismatch
    g = einsum("btd->btd", q, q)  # expect-error: arity
    return q
