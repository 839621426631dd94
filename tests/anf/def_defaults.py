# Parameters with default values (constant expressions).
SCALE = 2


def affine(x, a=1, b=0.5, c=SCALE * 3):
    return a * x + b + c


def main():
    return affine(1), affine(1, 2), affine(1, 2, 3.0), affine(1, 2, 3, 4)
