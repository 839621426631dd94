# expect: unsupported (warning) for try/except in f; exit 0.
def f(x):
    try:
        y = 1 / x
    except ZeroDivisionError:
        y = 0.0
    return y
