# A broadcast conflict names the axis where the operands disagree (counted
# from the end when their ranks differ) and each operand by its source
# text, a long one shortened by eliding its innermost brackets.
from fathom import *


def affine(x, weight, bias):
    return x * reshape(weight, (1, -1, 1, 1)) + reshape(bias, (1, 1, -1, 1))


def ranks(x, b):
    return x + reshape(b, (1, -1))


if __name__ == "__main__":
    y = affine(zeros((2, 4, 16, 16)), ones((4,)), zeros((4,)))
    z = ranks(zeros((3, 5, 6)), zeros((4,)))
