# Valid: constant flags choose None or a layer; every use is guarded.
from fathom import *


def init(d_in, d_out, bias):
    w = random_normal((d_out, d_in)) * 0.1
    b = zeros((d_out,)) if bias else None
    return w, b


def apply(p, x):
    w, b = p
    y = x @ w.T
    if b is not None:
        y = y + b
    return y


def block(x, p1, p2, residual, proj):
    h = relu(apply(p1, x))
    h = apply(p2, h)
    if residual:
        shortcut = apply(proj, x) if proj is not None else x
        h = h + shortcut
    return h


if __name__ == "__main__":
    x = random_normal((4, 8))
    p1 = init(8, 16, True)
    p2 = init(16, 16, False)
    proj = init(8, 16, False)
    y = block(x, p1, p2, True, proj)
    z = block(random_normal((4, 16)), init(16, 16, False), p2, True, None)
    assert y.shape == (4, 16) and z.shape == (4, 16)
