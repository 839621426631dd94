# Swapping through a tuple: the right side is evaluated first.
def swap(a, b):
    a, b = b, a
    return a - b


def rotate(a, b, c):
    a, b, c = b, c, a
    return a, b, c
