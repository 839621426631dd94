# expect-error at line 44: dtype-mismatch
# Planted bug: argmax gives i64 indices compared with i32 labels.
"""An MLP with batch norm and dropout in training mode, a half-precision
inference path (weights cast to f16), and top-1 accuracy with i32 labels."""
from __future__ import annotations

from fathom import *

EPS = 1e-5


def batch_norm(x, gamma, beta):
    mu = mean(x, axis=0)
    sigma2 = var(x, axis=0)
    return gamma * (x - mu) / sqrt(sigma2 + EPS) + beta


def forward(params, x, training):
    w1, b1, g1, be1, w2, b2 = params
    h = relu(batch_norm(x @ w1.T + b1, g1, be1))
    if training:
        h = dropout(h, 0.2)
    return h @ w2.T + b2


def loss_fn(params, x, labels):
    logits = forward(params, x, True)
    return -mean(take(log_softmax(logits), labels, axis=1)[0])


@jit
def train_step(w1: Tensor[f32, (H, 20)], b1: Tensor[f32, (H,)], g1: Tensor[f32, (H,)], be1: Tensor[f32, (H,)],
               w2: Tensor[f32, (3, H)], b2: Tensor[f32, (3,)], x: Tensor[f32, (B, 20)], labels: Tensor[i32, (B,)]):
    params = (w1, b1, g1, be1, w2, b2)
    grads = grad(loss_fn)(params, x, labels)
    return tuple(p - 0.01 * g for p, g in zip(params, grads))


@jit
def accuracy_f16(w1: Tensor[f32, (H, 20)], b1: Tensor[f32, (H,)], g1: Tensor[f32, (H,)], be1: Tensor[f32, (H,)],
                 w2: Tensor[f32, (3, H)], b2: Tensor[f32, (3,)], x: Tensor[f32, (B, 20)], labels: Tensor[i32, (B,)]):
    params = tuple(cast(p, f16) for p in (w1, b1, g1, be1, w2, b2))
    logits = forward(params, cast(x, f16), False)
    hits = argmax(logits, axis=-1) == labels
    return mean(cast(hits, f32))


if __name__ == "__main__":
    h = 6
    params = (random_normal((h, 20)) * 0.2, zeros((h,)), ones((h,)), zeros((h,)),
              random_normal((3, h)) * 0.2, zeros((3,)))
    x = random_normal((8, 20))
    labels = cast(arange(8) % 3, i32)
    new = train_step(*params, x, labels)
    assert all(p.shape == q.shape and q.dtype == f32 for p, q in zip(params, new))
    acc = accuracy_f16(*new, x, labels)
    assert acc.shape == () and acc.dtype == f32
    print("bn mlp ok", float(acc))
