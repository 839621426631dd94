# expect: one diagnostic for importing `conv3d`, which fathom does not
# export (suggesting `conv2d`); `zeros` imports fine; exit 1.
from fathom import conv3d, zeros


def f(n):
    return zeros((n,))
