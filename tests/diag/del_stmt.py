# expect: unsupported (warning) for the del statement; exit 0.
def f(x):
    y = x + 1
    del y
    return x
