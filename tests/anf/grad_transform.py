# grad(f) builds a function returning the gradient of f.
from fathom import grad, value_and_grad


def loss(w, x):
    return (w * x - 1.0) ** 2


def main():
    dw = grad(loss)(2.0, 3.0)
    v, g = value_and_grad(loss, argnums=1)(2.0, 3.0)
    return dw, v, g
