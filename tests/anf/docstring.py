"""A module docstring: an expression statement the analyser ignores."""


def square(x):
    """Return x squared.

    A multi-line docstring inside a function.
    """
    return x * x


def main():
    return square(7)
