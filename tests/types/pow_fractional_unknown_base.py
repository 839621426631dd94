# x ** 0.5 of a number whose sign is not known may be a complex number in
# CPython ((-1.0) ** 0.5 is 6.1e-17+1j): unknown, not f64.  A known base
# or a whole exponent keeps f64.
from typing import reveal_type


def root(x: float):
    return x ** 0.5


def scale(d: int):
    return d ** -0.5


def square(x: float):
    return x ** 2.0


def cube(x: float):
    return x ** 3


def main():
    reveal_type(root(4.0))  # expect-type: f64=2.0
    reveal_type(scale(64))  # expect-type: f64=0.125
    reveal_type(2.0 ** 0.5)  # expect-type: f64=1.4142135623730951
    return 0


if __name__ == "__main__":
    main()
