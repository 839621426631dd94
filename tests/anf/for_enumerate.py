# for i, x in enumerate(...), with and without a start.
def weighted(xs):
    s = 0
    for i, x in enumerate(xs):
        s += i * x
    for j, y in enumerate(xs, 1):
        s -= j * y
    return s
