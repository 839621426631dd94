# A two-layer MLP classifier and one SGD step with value_and_grad over a
# tuple of parameters.
from __future__ import annotations

from fathom import *

LR = 0.1
CLASSES = 10


def mlp(params, x):
    w1, b1, w2, b2 = params
    h = relu(x @ w1 + b1)
    return h @ w2 + b2


def loss_fn(params, x, y):
    logits = mlp(params, x)
    logp = log_softmax(logits, axis=-1)
    return -mean(reduce_sum(logp * one_hot(y, CLASSES), axis=-1))


@jit
def train_step(w1: Tensor[f32, (D, H)], b1: Tensor[f32, (H,)],
               w2: Tensor[f32, (H, 10)], b2: Tensor[f32, (10,)],
               x: Tensor[f32, (B, D)], y: Tensor[i64, (B,)]):
    params = (w1, b1, w2, b2)
    loss, grads = value_and_grad(loss_fn)(params, x, y)
    new = tuple(p - LR * g for p, g in zip(params, grads))
    return loss, new


@jit
def predict(w1: Tensor[f32, (D, H)], b1: Tensor[f32, (H,)],
            w2: Tensor[f32, (H, 10)], b2: Tensor[f32, (10,)], x: Tensor[f32, (B, D)]):
    probs = softmax(mlp((w1, b1, w2, b2), x))
    return argmax(probs, axis=1), max(probs, axis=1)


if __name__ == "__main__":
    w1 = random_normal((4, 6)) * 0.5
    b1 = zeros((6,))
    w2 = random_normal((6, CLASSES)) * 0.5
    b2 = zeros((CLASSES,))
    x = random_normal((3, 4))
    y = arange(3) % CLASSES
    loss, new = train_step(w1, b1, w2, b2, x, y)
    assert loss.shape == () and loss.dtype == f32
    for p, q in zip((w1, b1, w2, b2), new):
        assert p.shape == q.shape and q.dtype == f32
    loss2, _ = train_step(*new, x, y)
    assert float(loss2) < float(loss), (float(loss), float(loss2))
    labels, conf = predict(*new, x)
    assert labels.shape == (3,) and labels.dtype == i64
    assert conf.shape == (3,) and conf.dtype == f32
    print("mlp_train ok", float(loss), float(loss2))
