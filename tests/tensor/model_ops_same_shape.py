# Ops that keep the shape (language.md 6, "added for real model code"):
# tril/triu, masked_fill, the float activations elu leaky_relu silu
# softplus, and the scan cumsum; logsumexp reduces like mean.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def masks(x: Tensor[f32, (B, H, T, T)], i: Tensor[i32, (T, T)]):
    causal = tril(ones((x.shape[2], x.shape[3]), dtype=bool_))
    reveal_type(causal)  # expect-type: Tensor[bool_, (T, T)]
    reveal_type(triu(i, 1))  # expect-type: Tensor[i32, (T, T)]
    reveal_type(tril(x, k=-1))  # expect-type: Tensor[f32, (B, H, T, T)]
    att = masked_fill(x, causal == False, float("-inf"))
    reveal_type(att)  # expect-type: Tensor[f32, (B, H, T, T)]
    reveal_type(x.masked_fill(x > 0, 0))  # expect-type: Tensor[f32, (B, H, T, T)]
    reveal_type(i.masked_fill(i > 1, 7))  # expect-type: Tensor[i32, (T, T)]
    return softmax(att, axis=-1)


def activations(x: Tensor[f32, (B, D)], h: Tensor[f16, (4,)], n: Tensor[i64, (3,)]):
    reveal_type(elu(x))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(elu(x, 0.5))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(leaky_relu(x, negative_slope=0.2))  # expect-type: Tensor[f32, (B, D)]
    reveal_type(silu(h))  # expect-type: Tensor[f16, (4,)]
    reveal_type(softplus(n))  # expect-type: Tensor[f32, (3,)]
    reveal_type(leaky_relu(2.0))  # expect-type: f64
    return elu(x)


def scans(x: Tensor[f32, (B, T, D)], n: Tensor[i32, (B, T)], m: Tensor[bool_, (T,)]):
    reveal_type(cumsum(x, 1))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(cumsum(x, axis=-1))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(cumsum(n))  # expect-type: Tensor[i64, (B*T,)]
    reveal_type(m.cumsum(0))  # expect-type: Tensor[i64, (T,)]
    reveal_type(logsumexp(x, axis=-1))  # expect-type: Tensor[f32, (B, T)]
    reveal_type(logsumexp(n, axis=1, keepdims=True))  # expect-type: Tensor[f32, (B, 1)]
    reveal_type(logsumexp(x))  # expect-type: Tensor[f32, ()]
    return cumsum(x, 1)


def bad_same_shape(x: Tensor[f32, (B, T)], v: Tensor[f32, (T,)], i: Tensor[i32, (B, T)],
                   m: Tensor[bool_, (T, B)]):
    a = tril(v)  # expect-error: shape-mismatch
    b = masked_fill(x, x, 0.0)  # expect-error: dtype-mismatch
    c = masked_fill(x, m, 0.0)  # expect-error: shape-mismatch
    d = masked_fill(i, i > 0, 0.5)  # expect-error: dtype-mismatch
    e = cumsum(x, 2)  # expect-error: index-out-of-range
    f = logsumexp(x, axis=3)  # expect-error: index-out-of-range
    g = elu(x, alpha="a")  # expect-error: type-mismatch
    h = masked_fill(x, x > 0, v)  # expect-error: shape-mismatch
    k = leaky_relu(x, alpha=0.1)  # expect-error: arity
    return x


def grads(x: Tensor[f32, (B, D)], w: Tensor[f32, (D, D)]):
    loss = lambda w: mean(logsumexp(pad(einsum("bd,de->be", x, w), 1), axis=-1))
    reveal_type(grad(loss)(w))  # expect-type: Tensor[f32, (D, D)]
    return grad(loss)(w)
