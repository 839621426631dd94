# Generator expressions inside tuple(): unrolled over a range or a tuple.
def squares(n):
    return tuple(i * i for i in range(n))


def doubled(t):
    return tuple(2 * x for x in t if x > 0)


def main():
    return squares(4), doubled((1, -2, 3))
