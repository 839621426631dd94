# Every arithmetic binary operator on scalars, plus @ on tensors.
from fathom import *


def arith(a, b):
    return a + b, a - b, a * b, a / b, a // b, a % b, a ** b


def bitwise(a, b):
    return a & b, a | b, a ^ b, a << 2, a >> 1


def mm(x, y):
    return x @ y
