# Conditional expressions, including a nested one.
def sign(x):
    return 1 if x > 0 else (-1 if x < 0 else 0)


def pick(flag, a, b):
    y = a if flag else b
    return y * 2
