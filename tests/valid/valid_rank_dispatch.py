# Valid: shapes that depend on the rank, and isinstance dispatch.
from fathom import *

EPS = 1e-5


def batch_norm(x, gamma, beta):
    if x.ndim == 2:
        mu = mean(x, axis=0)
        v = var(x, axis=0)
        shape = (1, x.shape[1])
    else:
        mu = mean(x, axis=(0, 2, 3), keepdims=True)
        v = var(x, axis=(0, 2, 3), keepdims=True)
        shape = (1, x.shape[1], 1, 1)
    xhat = (x - reshape(mu, shape)) / sqrt(reshape(v, shape) + EPS)
    return xhat * reshape(gamma, shape) + reshape(beta, shape)


def as_pair(k):
    if isinstance(k, tuple):
        return k
    return (k, k)


def pool_out(n, k):
    kh, kw = as_pair(k)
    return n // kh, n // kw


if __name__ == "__main__":
    y2 = batch_norm(random_normal((4, 3)), ones((3,)), zeros((3,)))
    y4 = batch_norm(random_normal((2, 3, 5, 5)), ones((3,)), zeros((3,)))
    assert y2.shape == (4, 3) and y4.shape == (2, 3, 5, 5)
    assert pool_out(8, 2) == (4, 4) and pool_out(8, (2, 4)) == (4, 2)
