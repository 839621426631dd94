# args: --entry rnn_step
# Gradients through control flow decided at run time (docs/ir-json.md,
# "Gradients"): a for loop over a tensor of symbolic length, a while loop
# whose condition is a tensor's value, a branch on a tensor's value and a
# recursive function.  Each grad goes through augmented forward graphs
# (`G.fwd`, returning the value and a backpropagator closure `G.bprop`);
# tests/specialize_grad.py checks every gradient against finite
# differences, and the golden (grad_loop.ir) shows rnn_step's graphs.
from __future__ import annotations
from fathom import *


def rnn_loss(w: Tensor[f32, (H, H)], u: Tensor[f32, (D, H)], xs: Tensor[f32, (T, B, D)]):
    h = zeros((xs.shape[1], w.shape[0]))
    for x in xs:                      # T trips: a recursive loop header
        h = tanh(h @ w + x @ u)
    return mean(h * h)


def rnn_step(w: Tensor[f32, (H, H)], u: Tensor[f32, (D, H)], xs: Tensor[f32, (T, B, D)]):
    loss, (gw, gu) = value_and_grad(rnn_loss, argnums=(0, 1))(w, u, xs)
    return loss, w - 0.1 * gw, u - 0.1 * gu


def grow(x: Tensor[f32, (N,)], s: Tensor[f32, ()]):
    k = 0
    while k < 30 and reduce_sum(x * x) < 10.0:   # trips depend on x's values
        x = x * 2.0 + s
        k += 1
    return reduce_sum(sin(x))


def grow_step(x: Tensor[f32, (N,)], s: Tensor[f32, ()]):
    return grad(grow, argnums=(0, 1))(x, s)


def branchy(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):
    if reduce_sum(x) > 0.0:           # a branch on a tensor's value
        z = x * y
    else:
        z = sin(x) - y
    return mean(z * z)


def branchy_step(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):
    return value_and_grad(branchy, argnums=(0, 1))(x, y)


def repeat_tanh(x, w, n):
    if n <= 0:
        return x
    return repeat_tanh(tanh(x * w) * 1.5, w, n - 1)   # recursion, depth n


def rec_loss(x: Tensor[f32, (N,)], w: Tensor[f32, (N,)], n: int):
    return mean(repeat_tanh(x, w, n))


def rec_step(x: Tensor[f32, (N,)], w: Tensor[f32, (N,)], n: int):
    return grad(rec_loss, argnums=(0, 1))(x, w, n)


def compound(x: float, n: int):
    k = 0
    while k < n:                      # n trips, n known only at run time
        x = x * x * 0.25 + x
        k += 1
    return x


def compound_step(x: float, n: int):
    # scalars only: the C emitter compiles the augmented graphs and their
    # backpropagator closures too (tests/specialize.py runs the C)
    return grad(compound)(x, n)


def scan(h, w, xs):
    for x in xs:
        k = 0
        while k < 2 and reduce_sum(h * h) < 50.0:   # a run-time while in a run-time for
            h = tanh(h @ w) + x
            k += 1
    return h


def twice_loss(w: Tensor[f32, (H, H)], v: Tensor[f32, (H, H)], xs: Tensor[f32, (T, H)]):
    h = scan(zeros_like(xs[0]), w, xs)   # the same loops run twice, from two frames
    g = scan(h, v, xs)
    return reduce_sum(g * h)


def twice_step(w: Tensor[f32, (H, H)], v: Tensor[f32, (H, H)], xs: Tensor[f32, (T, H)]):
    return grad(twice_loss, argnums=(0, 1))(w, v, xs)


def steps_loss(x: Tensor[f32, (N,)], n: int):
    k = 0
    while k < n:                      # a run-time loop whose value takes no derivative:
        k += 2                        # its backpropagators exist but are never called
    return mean(x * x) * float(k)


def steps_step(x: Tensor[f32, (N,)], n: int):
    return grad(steps_loss)(x, n)
