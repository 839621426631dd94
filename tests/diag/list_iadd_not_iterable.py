def f():
    zs = [1]
    zs += 3
    return zs


def g():
    zs = [1]
    zs = zs + (3,)
    return zs
