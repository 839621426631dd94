# expect-error at line 11: shape-mismatch
# Planted bug: the weight vector is sized by the number of samples N instead of features F.
"""Binary logistic regression by full-batch gradient descent in a while
loop with early stopping on the loss change; predictions as i32 labels."""
from __future__ import annotations

from fathom import *


def nll(w, b, x, y):
    p = sigmoid(x @ w + b)
    p = clip(p, 1e-6, 1.0 - 1e-6)
    return -mean(y * log(p) + (1.0 - y) * log(1.0 - p))


@jit
def train(x: Tensor[f32, (N, F)], y: Tensor[f32, (N,)], max_iters: int, tol: float):
    w = zeros((x.shape[0],))
    b = zeros(())
    prev = 1e9
    it = 0
    while it < max_iters:
        loss, (gw, gb) = value_and_grad(nll, argnums=(0, 1))(w, b, x, y)
        w = w - 0.5 * gw
        b = b - 0.5 * gb
        if abs(prev - float(loss)) < tol:
            break
        prev = float(loss)
        it += 1
    return w, b, it


@jit
def predict(w: Tensor[f32, (F,)], b: Tensor[f32, ()], x: Tensor[f32, (N, F)]):
    return cast(sigmoid(x @ w + b) > 0.5, i32)


if __name__ == "__main__":
    x = random_normal((20, 3))
    y = cast(reduce_sum(x, axis=1) > 0, f32)
    w, b, it = train(x, y, 50, 1e-4)
    assert w.shape == (3,) and b.shape == () and isinstance(it, int)
    p = predict(w, b, x)
    assert p.shape == (20,) and p.dtype == i32
    print("logreg ok", it)
