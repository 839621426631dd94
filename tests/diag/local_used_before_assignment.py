# expect: undefined-name (or a possibly-unbound error) for `y`, read before
# any assignment on line 4; exit 1.
def f(x):
    z = y + 1
    y = x
    return z
