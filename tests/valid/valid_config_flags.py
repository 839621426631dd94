# Valid: a config tuple of hyperparameters and flags drives an attention
# block; the branch the flags turn off is correct too.
from fathom import *


def attention(x, w_qkv, n_head, flash, causal):
    b, t, c = x.shape
    q, k, v = split(x @ w_qkv.T, 3, axis=2)
    q = transpose(reshape(q, (b, t, n_head, c // n_head)), (0, 2, 1, 3))
    k = transpose(reshape(k, (b, t, n_head, c // n_head)), (0, 2, 1, 3))
    v = transpose(reshape(v, (b, t, n_head, c // n_head)), (0, 2, 1, 3))
    if flash:
        y = softmax(q @ transpose(k, (0, 1, 3, 2)), axis=-1) @ v
    else:
        att = (q @ transpose(k, (0, 1, 3, 2))) * (1.0 / (c // n_head) ** 0.5)
        if causal:
            mask = arange(t)[None, :] <= arange(t)[:, None]
            att = where(mask, att, -1e9)
        y = softmax(att, axis=-1) @ v
    return reshape(transpose(y, (0, 2, 1, 3)), (b, t, c))


def model(x, cfg, w):
    n_head, flash, causal = cfg
    return attention(x, w, n_head, flash, causal)


if __name__ == "__main__":
    x = random_normal((2, 5, 8))
    y = model(x, (2, True, True), random_normal((24, 8)))
    assert y.shape == (2, 5, 8)
