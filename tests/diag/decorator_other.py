# expect: unsupported (warning) for the decorator @twice (only @jit is
# supported); exit 0.
def twice(fn):
    return fn


@twice
def f(x):
    return x + 1
