# expect: unsupported (warning) for the class statement inside f (classes
# are supported at module level only), at its
# exact span; g is still analysed; exit 0.
def f(x):
    class Point:
        pass
    return x


def g(y):
    return y + 1
