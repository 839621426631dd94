# for a, b in zip(...).
def dot(xs, ys):
    s = 0
    for a, b in zip(xs, ys):
        s += a * b
    return s


def main():
    return dot((1, 2, 3), (4, 5, 6))
