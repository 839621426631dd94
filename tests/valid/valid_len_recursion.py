# Valid: recursion over a tuple driven by len, and a loop over layers.
from fathom import *


def total(t):
    if len(t) == 0:
        return 0.0
    return t[0] + total(t[1:])


def run_layers(x, layers):
    if len(layers) == 0:
        return x
    w, b = layers[0]
    return run_layers(relu(x @ w.T + b), layers[1:])


def sizes_ok(sizes):
    return len(sizes) >= 2 and sizes[0] > 0


if __name__ == "__main__":
    assert total((1.0, 2.0, 3.5)) == 6.5
    layers = ((random_normal((8, 4)), zeros((8,))), (random_normal((3, 8)), zeros((3,))))
    y = run_layers(random_normal((2, 4)), layers)
    assert y.shape == (2, 3)
    assert sizes_ok((4, 8, 3))
