def inc(n):
    return n + 1


def twice(f, x):
    return f(f(x))
