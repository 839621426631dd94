# args: --entry scale --args i64,f64
def scale(n, x):
    y = n * x
    return y + 1


def unused(a):
    return a
