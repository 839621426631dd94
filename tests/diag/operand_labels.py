# A broadcast conflict names the axis where the operands disagree (counted
# from the end when their ranks differ) and each operand by its source
# text, a long one shortened by eliding its innermost brackets; a concat
# conflict names the axis it concatenates on.
from fathom import *


def affine(x, running_weight, running_bias):
    return x * reshape(running_weight, (1, -1, 1, 1)) + reshape(running_bias, (1, 1, -1, 1))


def ranks(x, b):
    return x + reshape(b, (1, -1))


def dense(X, Y):
    return concat((X, Y), axis=0)


if __name__ == "__main__":
    y = affine(zeros((2, 4, 16, 16)), ones((4,)), zeros((4,)))
    z = ranks(zeros((3, 5, 6)), zeros((4,)))
    w = dense(zeros((4, 3, 8, 8)), zeros((4, 10, 8, 8)))
