# expect-error at line 23: dtype-mismatch
# Planted bug: the regression targets are f64 while the model computes in f32.
"""An MLP regression trained for a number of steps with Adam: optimizer
state (first and second moments) carried as tuples through a for loop,
bias correction with the step count, and a held-out evaluation."""
from __future__ import annotations

from fathom import *

B1 = 0.9
B2 = 0.999
LR = 1e-3


def predict(params, x):
    w1, b1, w2, b2, w3, b3 = params
    h = gelu(x @ w1 + b1)
    h = gelu(h @ w2 + b2)
    return squeeze(h @ w3 + b3, -1)


def mse(params, x, y):
    d = predict(params, x) - y
    return mean(d * d)


def adam_update(params, grads, m, v, step):
    new_m = tuple(B1 * mi + (1.0 - B1) * g for mi, g in zip(m, grads))
    new_v = tuple(B2 * vi + (1.0 - B2) * g * g for vi, g in zip(v, grads))
    c1 = 1.0 - B1 ** step
    c2 = 1.0 - B2 ** step
    new_p = tuple(p - LR * (mi / c1) / (sqrt(vi / c2) + 1e-8)
                  for p, mi, vi in zip(params, new_m, new_v))
    return new_p, new_m, new_v


@jit
def fit(w1: Tensor[f32, (D, 32)], b1: Tensor[f32, (32,)], w2: Tensor[f32, (32, 32)], b2: Tensor[f32, (32,)],
        w3: Tensor[f32, (32, 1)], b3: Tensor[f32, (1,)],
        x: Tensor[f32, (N, D)], y: Tensor[f64, (N,)], steps: int):
    params = (w1, b1, w2, b2, w3, b3)
    m = tuple(zeros_like(p) for p in params)
    v = tuple(zeros_like(p) for p in params)
    loss = mse(params, x, y)
    for step in range(1, steps + 1):
        loss, grads = value_and_grad(mse)(params, x, y)
        params, m, v = adam_update(params, grads, m, v, step)
    return params, loss


if __name__ == "__main__":
    d = 5
    params = (random_normal((d, 32)) * 0.3, zeros((32,)), random_normal((32, 32)) * 0.2,
              zeros((32,)), random_normal((32, 1)) * 0.2, zeros((1,)))
    x = random_normal((16, d))
    y = reduce_sum(x, axis=1)
    new, loss = fit(*params, x, y, 3)
    assert loss.shape == () and loss.dtype == f32
    assert all(p.shape == q.shape and q.dtype == f32 for p, q in zip(params, new))
    print("adam ok", float(loss))
