# The optional and missing-return messages: when None happens, where it
# comes from, and what to test.
from fathom import *


def conv_params(c):
    return ones((c, c, 3, 3))


def block(x, c, use_1x1conv):
    conv3 = conv_params(c) if use_1x1conv else None
    return conv2d(x, conv3)


def sign(n):
    if n > 0:
        return 1
    elif n < 0:
        return -1


def scale(n):
    s = sign(n)
    return s * 2


def last(xs):
    best = None
    for x in xs:
        best = x
    return best + 1


def main():
    flag = random_uniform(()) > 0.5
    y = block(ones((1, 4, 8, 8)), 4, flag)
    n = int(random_uniform(()) * 10)
    return scale(n - 5), last([k for k in range(n)])
