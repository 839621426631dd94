from units import FACTOR


def scale(x):
    y = x * FACTOR  # expect-type: f64
    return y
