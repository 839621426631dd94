# expect: three separate syntax errors (lines 4, 9 and 13), each reported
# once at its own span; exit 1.
def f(x):
    y = x +* 2
    return y


def g(x):
    return x $ 1


def h(x):
    z = (x ? 3)
    return z
