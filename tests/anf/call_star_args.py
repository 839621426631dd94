# Calls that unpack tuples with `*t`.
def add3(a, b, c):
    return a + b + c


def main():
    t = (1, 2, 3)
    u = (2, 3)
    return add3(*t), add3(1, *u), add3(*(1,), *u)
