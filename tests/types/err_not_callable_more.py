# Calling None returned by print, a module, or a tuple item that is a number.
import math


def main():
    a = print('x')()  # expect-error: not-callable
    b = math()  # expect-error: not-callable
    fs = (abs, 2)
    c = fs[1](3)  # expect-error: not-callable
    return 0
