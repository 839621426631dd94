# expect: unsupported (warning) for try/finally in f; exit 0.
def f(x):
    y = x
    try:
        y = y * 2
    finally:
        y = y + 1
    return y
